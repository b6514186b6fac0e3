//! Times in the documents: milliseconds rounded to a microsecond, `null` when not finite.

use std::borrow::Cow;
use std::time::SystemTime;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Serialize, Serializer};

/// Milliseconds, rounded to a microsecond; `null` when not finite (JSON has no infinity).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Ms(pub f64);

impl Serialize for Ms {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64((self.0 * 1000.0).round() / 1000.0)
        } else {
            s.serialize_none()
        }
    }
}

impl JsonSchema for Ms {
    fn schema_name() -> Cow<'static, str> {
        "Ms".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({
            "type": ["number", "null"],
            "description": "Milliseconds, rounded to 0.001; null when not finite."
        })
    }
}

pub(crate) fn ms(v: f64) -> Ms {
    Ms(v)
}

pub(crate) fn opt_ms(v: Option<f64>) -> Option<Ms> {
    v.map(Ms)
}

pub(crate) fn unix_ms(t: SystemTime) -> Option<Ms> {
    t.duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|d| Ms(d.as_secs_f64() * 1000.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_rounded_and_infinity_is_null() {
        let v = serde_json::to_value([Ms(1.23456), Ms(f64::INFINITY), Ms(f64::NAN)]).expect("JSON");
        assert_eq!(v, serde_json::json!([1.235, null, null]));
    }
}
