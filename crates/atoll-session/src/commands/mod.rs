//! The collective commands of the session, in folders by area: each command a
//! [`Handler`](atoll::runtime::Handler) that every locale runs on its part of the data (driver
//! mode, locale 0 being the driver's thread), with the typed function that the driver calls.
//!
//! | area | what |
//! |---|---|
//! | [`arrays`] | creation, transfers, evaluation, reductions, scans, indexing, sorting, memory, settings |
//! | [`strings`] | distributed strings: transfers, transforms, splits, tests, hashes, grouping, categorical codes |
//! | [`groupby`] | multi-key sort, GroupBy's grouping and aggregations, the dense-key paths |
//! | [`frames`] | the pandas layer's commands: bitwise segmented reductions, float bits, memory checks |
//! | [`io`] | Parquet and HDF5 |
//! | [`graph`] | graphs and their algorithms, edge lists in shared files |

/// Declares a module's commands and its share of the registration. Each command is a
/// `static` [`Handler`](atoll::runtime::Handler): its argument type (a named struct when it
/// takes several values), its result type, a name unique in the program and the function that
/// every locale runs. The optional `modules { ... }` block declares submodules, each of which
/// has a `commands!` of its own. The macro writes the module's `register()`, which registers
/// the submodules' commands and its own; [`register`] (this module's) reaches every area, and
/// `session::start` calls it in every process before a job starts. So a new command is
/// declared once, in its file's `commands!`, and nothing else lists it.
///
/// ```text
/// commands! {
///     modules {
///         mod extra;
///     }
///     /// The strings' lengths.
///     static LEN: Handler<u64, usize> = Handler::new("example::len", len_of_cmd);
/// }
/// ```
macro_rules! commands {
    (
        modules { $($(#[$mm:meta])* $mvis:vis mod $sub:ident;)* }
        $($(#[$m:meta])* $vis:vis static $name:ident: $ty:ty = Handler::new($key:literal, $f:expr);)*
    ) => {
        $($(#[$mm])* $mvis mod $sub;)*
        $($(#[$m])* $vis static $name: $ty = Handler::new($key, $f);)*
        /// Registers the commands declared in this module and its submodules, in this process.
        pub(crate) fn register() {
            $($sub::register();)*
            $($name.register();)*
        }
    };
    ($($(#[$m:meta])* $vis:vis static $name:ident: $ty:ty = Handler::new($key:literal, $f:expr);)*) => {
        commands! { modules {} $($(#[$m])* $vis static $name: $ty = Handler::new($key, $f);)* }
    };
}

commands! {
    modules {
        pub mod arrays;
        pub mod frames;
        pub mod graph;
        pub mod groupby;
        pub mod io;
        pub mod strings;
    }
}

pub use arrays::*;
pub(crate) use arrays::{materialize, Operand};
