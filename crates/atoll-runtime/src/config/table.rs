//! The one declaration of every setting: the [`settings!`] macro turns a table of rows (field,
//! type, default, variable, scope, parser, accepted values, default in words, doc lines) into
//! the [`Config`](super::Config) struct with its field docs and the rustdoc table of its
//! variables, its `Default`, the reading of the environment ([`read_vars`](super::read_vars)),
//! and the listing [`SETTINGS`](super::SETTINGS) from which the guide's table is checked.

/// Where a setting applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// A setting of the job.
    Job,
    /// A setting of the MPI backend, which a job on the local backend ignores.
    Mpi,
    /// A setting of the process: a job applies its value when it starts (until one does, the
    /// environment's holds).
    Process,
}

/// One row of the table: what the documentation lists about a setting.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setting {
    /// The field of [`Config`](super::Config).
    pub field: &'static str,
    /// The environment variable.
    pub var: &'static str,
    /// Where it applies.
    pub scope: Scope,
    /// The values it takes, in words.
    pub values: &'static str,
    /// Its default, in words.
    pub default: &'static str,
}

impl Setting {
    /// The setting's row of the documentation's table (`| field | variable | values | default |`).
    pub(crate) fn markdown_row(&self) -> String {
        format!("| `{}` | `{}` | {} | {} |", self.field, self.var, self.values, self.default)
    }
}

/// Generates, from one row per setting, the struct (with its doc table), `Default`, the reading
/// of the variables and the listing. A row:
///
/// ```text
/// /// doc lines of the field
/// field: Type = default_expr, "ATOLL_VAR", Scope, parser, "values in words", "default in words";
/// ```
///
/// `parser` is a `fn(&str, &str) -> Result<Type>` given the variable's name and its value (never
/// empty: an empty variable counts as unset).
macro_rules! settings {
    (
        $(#[$head:meta])*
        @table
        $(#[$foot:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident: $ty:ty = $default:expr, $var:literal, $scope:ident, $parse:expr,
                    $values:literal, $default_doc:literal;
            )*
        }
    ) => {
        $(#[$head])*
        ///
        /// | field | variable | values | default |
        /// |---|---|---|---|
        $( #[doc = concat!("| `", stringify!($field), "` | `", $var, "` | ", $values, " | ", $default_doc, " |")] )*
        ///
        $(#[$foot])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name {
            $(
                $(#[doc = $doc])*
                pub $field: $ty,
            )*
            /// The errors of invalid `ATOLL_*` variables met by [`Config::local`] or
            /// [`Config::mpi`] (which return a `Config`, not a `Result`), by variable:
            /// [`run`](crate::run) returns the first one still relevant.
            env_errors: Vec<(&'static str, Error)>,
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $default,)* env_errors: Vec::new() }
            }
        }

        /// Every setting, in the table's order.
        pub(crate) const SETTINGS: &[Setting] = &[
            $(Setting {
                field: stringify!($field),
                var: $var,
                scope: Scope::$scope,
                values: $values,
                default: $default_doc,
            },)*
        ];

        /// Reads every variable through `get` into `c`; a bad value leaves the field as it
        /// was and its error is pushed on `errs`. An empty (or blank) variable counts as unset.
        fn read_vars(c: &mut $name, get: &dyn Fn(&str) -> Option<String>, errs: &mut Vec<(&'static str, Error)>) {
            $(
                if let Some(v) = get($var).filter(|v| !v.trim().is_empty()) {
                    let parse: fn(&str, &str) -> Result<$ty> = $parse;
                    match parse($var, &v) {
                        Ok(x) => c.$field = x,
                        Err(e) => errs.push(($var, e)),
                    }
                }
            )*
        }
    };
}
pub(crate) use settings;
