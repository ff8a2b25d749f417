//! Benchmark output: one JSON object per line (DESIGN.md section 5), or a readable line.

use serde_json::{Map, Value};

/// One result line.
pub struct Line {
    fields: Map<String, Value>,
}

impl Line {
    /// A line with the fields every benchmark reports.
    pub fn new(bench: &str, variant: &str, backend: &str, locales: usize, n: u64, seconds: f64, ok: bool) -> Line {
        let mut fields = Map::new();
        fields.insert("bench".into(), bench.into());
        fields.insert("variant".into(), variant.into());
        fields.insert("backend".into(), backend.into());
        fields.insert("locales".into(), locales.into());
        fields.insert("n".into(), n.into());
        fields.insert("seconds".into(), seconds.into());
        fields.insert("ok".into(), ok.into());
        Line { fields }
    }

    /// A line with only the `bench` field (for summaries that are not one timed run).
    pub fn bare(bench: &str) -> Line {
        let mut fields = Map::new();
        fields.insert("bench".into(), bench.into());
        Line { fields }
    }

    /// Adds a figure.
    pub fn with(mut self, key: &str, v: impl Into<Value>) -> Line {
        self.fields.insert(key.into(), v.into());
        self
    }

    /// Prints the line as JSON or as `key=value` pairs.
    pub fn print(&self, json: bool) {
        if json {
            println!("{}", Value::Object(self.fields.clone()));
        } else {
            let parts: Vec<String> = self
                .fields
                .iter()
                .map(|(k, v)| match v {
                    Value::Number(n) if n.is_f64() => format!("{k}={:.4e}", n.as_f64().unwrap_or(0.0)),
                    Value::String(s) => format!("{k}={s}"),
                    other => format!("{k}={other}"),
                })
                .collect();
            println!("{}", parts.join(" "));
        }
    }
}
