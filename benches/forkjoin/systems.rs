//! The workloads and the systems that run them, with their names on the
//! command line and in the report.

use super::uts;

/// A fork-join workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    UtsT1,
    UtsT3,
    Fib,
    Skynet,
    Nqueens,
    Quicksort,
}

impl Workload {
    pub const ALL: [Workload; 6] = [
        Workload::UtsT1,
        Workload::UtsT3,
        Workload::Fib,
        Workload::Skynet,
        Workload::Nqueens,
        Workload::Quicksort,
    ];

    /// The name on the command line (`--case`, `--filter`).
    pub fn id(self) -> &'static str {
        match self {
            Workload::UtsT1 => "uts-t1",
            Workload::UtsT3 => "uts-t3",
            Workload::Fib => "fib",
            Workload::Skynet => "skynet",
            Workload::Nqueens => "nqueens",
            Workload::Quicksort => "quicksort",
        }
    }

    /// The row title in the report.
    pub fn title(self) -> &'static str {
        match self {
            Workload::UtsT1 => "UTS T1 (geometric, 4.1 M nodes)",
            Workload::UtsT3 => "UTS T3 (binomial, 4.1 M nodes)",
            Workload::Fib => "fib(27), fork per call",
            Workload::Skynet => "skynet, 1 M leaves, join per split",
            Workload::Nqueens => "nqueens(12), join per split",
            Workload::Quicksort => "quicksort 2 M u64, cutoff 2,048",
        }
    }

    pub fn uts_tree(self) -> Option<&'static uts::Tree> {
        match self {
            Workload::UtsT1 => Some(&uts::T1),
            Workload::UtsT3 => Some(&uts::T3),
            _ => None,
        }
    }
}

/// A way of running fork-join code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    Sequential,
    RayonJoin,
    RayonScope,
    Chili,
    RtJoin,
    RtScope,
    RtSpawn,
}

impl System {
    /// Every system, in the report's column order.
    pub const ALL: [System; 7] = [
        System::Sequential,
        System::RayonJoin,
        System::RayonScope,
        System::Chili,
        System::RtJoin,
        System::RtScope,
        System::RtSpawn,
    ];

    /// The name on the command line (`--case`, `--only`).
    pub fn id(self) -> &'static str {
        match self {
            System::Sequential => "seq",
            System::RayonJoin => "rayon",
            System::RayonScope => "rayon-scope",
            System::Chili => "chili",
            System::RtJoin => "rt-join",
            System::RtScope => "rt-scope",
            System::RtSpawn => "rt-spawn",
        }
    }

    /// The column title in the report.
    pub fn name(self) -> &'static str {
        match self {
            System::Sequential => "sequential",
            System::RayonJoin => "rayon join",
            System::RayonScope => "rayon scope",
            System::Chili => "chili join",
            System::RtJoin => "rt join",
            System::RtScope => "rt scope",
            System::RtSpawn => "rt spawn+join",
        }
    }

    /// Whether this system has a version of `workload`: rayon's scope is
    /// measured on UTS and fib, the workloads `rt scope` is compared on;
    /// skynet and nqueens measure `join` alone.
    pub fn runs(self, workload: Workload) -> bool {
        match workload {
            Workload::Skynet | Workload::Nqueens => matches!(
                self,
                System::Sequential | System::RayonJoin | System::Chili | System::RtJoin
            ),
            Workload::Quicksort => self != System::RayonScope,
            Workload::UtsT1 | Workload::UtsT3 | Workload::Fib => true,
        }
    }
}

/// `WORKLOAD:SYSTEM`, as passed to `--case`.
pub fn case_id(workload: Workload, system: System) -> String {
    format!("{}:{}", workload.id(), system.id())
}

/// Parses `WORKLOAD:SYSTEM`.
pub fn parse_case(id: &str) -> Option<(Workload, System)> {
    let (w, s) = id.split_once(':')?;
    let w = Workload::ALL.into_iter().find(|x| x.id() == w)?;
    let s = System::ALL.into_iter().find(|x| x.id() == s)?;
    s.runs(w).then_some((w, s))
}
