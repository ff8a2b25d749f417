pub mod scenarios;
