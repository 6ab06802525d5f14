// A `links` key needs a build script; there is nothing to link.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
}
