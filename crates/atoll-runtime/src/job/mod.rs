//! Jobs: building the locales of a job on either backend and running it, as one SPMD program
//! ([`run`](crate::run), `run.rs`) or in driver mode ([`Driver`](crate::Driver), `driver.rs`;
//! how a command ends on each locale is `ctx/command.rs`).

pub(crate) mod driver;
pub(crate) mod run;
