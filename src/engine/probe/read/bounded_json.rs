//! Parsing a server's message without a second copy of its bulk: a [`Value`] in which every
//! string longer than [`LONG_STRING`] is cut to that length, except an `id` or a `nextCursor`
//! (echoed to the server exactly, as the host does).
//!
//! A message is read whole (a line, a WebSocket message: up to the host's limits), then parsed.
//! With a plain `serde_json::Value` a 100 MiB message whose bulk is one string (a notification's
//! data, a padded answer) was held twice at once, as bytes and as the parsed string; nothing the
//! probe reports needs more than the first few hundred characters of any text, so the parsed
//! copy keeps at most [`LONG_STRING`] bytes of each.
//!
//! A `tools` array (a `tools/list` page) is folded as it is parsed ([`FOLDED_TOOLS`]): its
//! count, a digest of its names and its first and last [`KEEP`] names, whatever its length.
//! With [`parse_reader`], a message is parsed as it is read, never held whole: a page of any
//! size (the host reads it) costs the probe what its fold keeps.

use std::collections::VecDeque;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{json, Map, Number, Value};

use crate::engine::folded::KEEP;

/// The most bytes kept of one string in a parsed message (ids and cursors excepted).
pub(crate) const LONG_STRING: usize = 64 * 1024;

/// Parse `text` as JSON, long strings cut (see the module).
pub(crate) fn parse(text: &str) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = Bounded { whole: false }.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Parse JSON as it is read from `reader` (long strings cut, `tools` folded; see the module).
pub(crate) fn parse_reader<R: std::io::Read>(reader: R) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_reader(reader);
    let v = Bounded { whole: false }.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// The one key of the object a parsed `tools` array becomes: `{"count": tools in the array,
/// "named": those with a string name, "digest": the wrapping sum of [`name_digest`] of their
/// names, "first": [names], "last": [names]}` (at most [`KEEP`] names each, in order).
pub(crate) const FOLDED_TOOLS: &str = "\u{0}folded-tools";

/// A digest of one tool name, the same in every launch of a run (summed over a listing, so the
/// order of the names does not matter).
pub(crate) fn name_digest(name: &str) -> u64 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut h = DefaultHasher::new();
    name.hash(&mut h);
    h.finish()
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
            let v = if key == "tools" {
                map.next_value_seed(Tools)?
            } else {
                let whole = key == "id" || key == "nextCursor";
                map.next_value_seed(Bounded { whole })?
            };
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

/// The value of a `tools` key: an array is folded as it is read, anything else parsed as usual.
#[derive(Clone, Copy)]
struct Tools;

impl<'de> DeserializeSeed<'de> for Tools {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

const PLAIN: Bounded = Bounded { whole: false };

impl<'de> Visitor<'de> for Tools {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Value, E> {
        PLAIN.visit_bool(v)
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Value, E> {
        PLAIN.visit_i64(v)
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Value, E> {
        PLAIN.visit_u64(v)
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        PLAIN.visit_f64(v)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Value, E> {
        PLAIN.visit_str(v)
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Value, E> {
        PLAIN.visit_string(v)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        PLAIN.visit_unit()
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Value, E> {
        PLAIN.visit_none()
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        PLAIN.visit_map(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let (mut count, mut named, mut digest) = (0u64, 0u64, 0u64);
        let mut first: Vec<String> = Vec::new();
        let mut last: VecDeque<String> = VecDeque::new();
        while let Some(name) = seq.next_element_seed(ToolName)? {
            count += 1;
            let Some(name) = name else { continue };
            named += 1;
            digest = digest.wrapping_add(name_digest(&name));
            if first.len() < KEEP {
                first.push(name);
            } else {
                last.push_back(name);
                if last.len() > KEEP {
                    last.pop_front();
                }
            }
        }
        Ok(
            json!({FOLDED_TOOLS: {"count": count, "named": named, "digest": digest,
            "first": first, "last": last}}),
        )
    }
}

/// One tool of a `tools` array: its `name` when it is a string (cut), nothing else kept.
struct ToolName;

impl<'de> DeserializeSeed<'de> for ToolName {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<String>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ToolName {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a tool")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_str<E>(self, _: &str) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_unit<E>(self) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_none<E>(self) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<String>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<String>, A::Error> {
        let mut name = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "name" && name.is_none() {
                if let Value::String(s) = map.next_value_seed(PLAIN)? {
                    name = Some(s);
                }
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(name)
    }
}

/// Whether a JSON message cut at the line limit may be an answer: one whose kept beginning
/// shows a top-level `"method"` key is a request or a notification, never an answer.
pub(crate) fn may_be_an_answer(prefix: &[u8]) -> bool {
    let mut depth = 0usize;
    // At the top level, the next string is a key.
    let mut key_next = false;
    let mut i = 0;
    while i < prefix.len() {
        match prefix[i] {
            b'{' => {
                depth += 1;
                key_next = depth == 1;
            }
            b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' => key_next = depth == 1,
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < prefix.len() && prefix[j] != b'"' {
                    j += if prefix[j] == b'\\' { 2 } else { 1 };
                }
                if j >= prefix.len() {
                    // Cut inside a string.
                    return true;
                }
                if key_next && &prefix[start..j] == b"method" {
                    return false;
                }
                key_next = false;
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    true
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

    #[test]
    fn a_tools_array_is_folded_as_it_is_read() {
        let tools: Vec<Value> = (0..1000)
            .map(|i| json!({"name": format!("t{i}"), "inputSchema": {"type": "object"}}))
            .chain([json!(7), json!({"title": "no name"})])
            .collect();
        let text = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": tools,
            "nextCursor": "c"}})
        .to_string();
        // Read a few bytes at a time: nothing needs the message whole.
        let v =
            parse_reader(std::io::BufReader::with_capacity(7, text.as_bytes())).unwrap_or_default();
        let f = &v["result"]["tools"][FOLDED_TOOLS];
        assert_eq!(f["count"], 1002);
        assert_eq!(f["named"], 1000);
        let digest = (0..1000).fold(0u64, |d, i| d.wrapping_add(name_digest(&format!("t{i}"))));
        assert_eq!(f["digest"], digest);
        assert_eq!(f["first"][0], "t0");
        assert_eq!(f["first"].as_array().map(Vec::len), Some(KEEP));
        assert_eq!(f["last"][KEEP - 1], "t999");
        assert_eq!(v["result"]["nextCursor"], "c");
        // Other values under `tools` (a capability) parse as usual; so does the same text.
        let caps = parse(r#"{"capabilities":{"tools":{"listChanged":true}}}"#).unwrap_or_default();
        assert_eq!(caps["capabilities"]["tools"]["listChanged"], true);
        assert_eq!(parse(&text).ok(), Some(v));
        assert!(parse_reader(&b"{\"a\":1} x"[..]).is_err());
    }

    #[test]
    fn a_cut_message_with_a_top_level_method_is_no_answer() {
        assert!(!may_be_an_answer(
            br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"xxx"#
        ));
        assert!(!may_be_an_answer(
            br#"{ "params": {"method": "x", "a": [1, {"b": "}"}]}, "method": "n"#
        ));
        assert!(may_be_an_answer(
            br#"{"jsonrpc":"2.0","id":0,"result":{"serverInfo":{"method":"x","padding":"xxx"#
        ));
        assert!(may_be_an_answer(
            br#"{"jsonrpc":"2.0","id":0,"result":{"a":"\"method\"","b":"xx"#
        ));
        assert!(may_be_an_answer(
            br#"{"jsonrpc":"2.0","id":0,"result":{"padding":"xxxxx"#
        ));
    }
}
