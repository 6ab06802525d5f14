//! The pieces of the `fair` benchmark: the workload (arrivals, foreground
//! requests, background loops), the systems it runs on, and the report.

pub mod report;
pub mod systems;
pub mod workload;
