//! Parsing a server's message without a second copy of its bulk: a [`Value`] in which every
//! string longer than [`LONG_STRING`] is cut to that length, except an `id` or a `nextCursor`
//! (echoed to the server exactly, as the host does).
//!
//! A message is read whole (a line, a WebSocket message: up to the host's limits), then parsed.
//! With a plain `serde_json::Value` a 100 MiB message whose bulk is one string (a notification's
//! data, a padded answer) was held twice at once, as bytes and as the parsed string; nothing the
//! probe reports needs more than the first few hundred characters of any text, so the parsed
//! copy keeps at most [`LONG_STRING`] bytes of each.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// The most bytes kept of one string in a parsed message (ids and cursors excepted).
pub const LONG_STRING: usize = 64 * 1024;

/// Parse `text` as JSON, long strings cut (see the module).
pub fn parse(text: &str) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = Bounded { whole: false }.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// One value; `whole`: a string here is kept whole (the value of an `id` or `nextCursor`).
#[derive(Clone, Copy)]
struct Bounded {
    whole: bool,
}

fn cut(s: &str) -> &str {
    if s.len() <= LONG_STRING {
        return s;
    }
    let mut end = LONG_STRING;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

impl<'de> DeserializeSeed<'de> for Bounded {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Bounded {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(if self.whole {
            v.to_string()
        } else {
            cut(v).to_string()
        }))
    }

    fn visit_string<E>(self, mut v: String) -> Result<Value, E> {
        if !self.whole && v.len() > LONG_STRING {
            let keep = cut(&v).len();
            v.truncate(keep);
            v.shrink_to_fit();
        }
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Bounded { whole: false })? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let whole = key == "id" || key == "nextCursor";
            let v = map.next_value_seed(Bounded { whole })?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn small_messages_parse_as_serde_json_does() {
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"result":{"a":[1,-2,3.5,true,null,"x\u00e9\n"]}}"#,
            r#"[{"k":{}}, [], "", 18446744073709551615, -9223372036854775808]"#,
            r#""just a string""#,
        ] {
            let want: Value = serde_json::from_str(text).unwrap_or_default();
            assert_eq!(parse(text).ok(), Some(want), "{text}");
        }
        assert!(parse("{\"a\":1} x").is_err());
        assert!(parse("{\"a\":").is_err());
    }

    #[test]
    fn long_strings_are_cut_but_ids_and_cursors_kept_whole() {
        let big = "é".repeat(LONG_STRING);
        let msg = json!({"jsonrpc": "2.0", "id": big, "method": "m",
            "params": {"data": big, "list": [big]},
            "result": {"nextCursor": big}});
        let v = parse(&msg.to_string()).unwrap_or_default();
        assert_eq!(v["id"].as_str().map(str::len), Some(big.len()));
        assert_eq!(
            v["result"]["nextCursor"].as_str().map(str::len),
            Some(big.len())
        );
        assert_eq!(
            v["params"]["data"].as_str().map(str::len),
            Some(LONG_STRING)
        );
        assert_eq!(
            v["params"]["list"][0].as_str().map(str::len),
            Some(LONG_STRING)
        );
        // An escaped long string too.
        let escaped = format!("{{\"data\":\"{}\"}}", "\\n".repeat(LONG_STRING + 10));
        let v = parse(&escaped).unwrap_or_default();
        assert_eq!(v["data"].as_str().map(str::len), Some(LONG_STRING));
    }
}
