//! Fields the host does not read, and the known field each one likely meant.

use super::super::draft::{short, Draft};
use super::super::fields;
use super::super::finding::Code;
use super::super::walk::RawEntry;
use super::ctx::Ctx;

/// A field of an entry that the host does not read, and the known field it likely meant.
pub(super) struct Typo {
    written: String,
    meant: Option<&'static fields::Field>,
}

/// One `unknown-field` warning per field the entry's host does not read; returns them for the
/// binding error to name the launch fields they hide.
pub(super) fn unknown_fields(
    ctx: &Ctx<'_, '_>,
    e: &RawEntry<'_>,
    out: &mut Vec<Draft>,
) -> Vec<Typo> {
    let doc = ctx.doc;
    let mut typos = Vec::new();
    for (name, id) in &e.fields {
        if fields::entry_field(e.table, name).is_some()
            || ctx.scope.host.extra_fields().contains(&name.as_ref())
        {
            continue;
        }
        let meant = fields::suggest_entry_field(e.table, name);
        let shown = short(name);
        let table = e.table.key();
        let mut message = match meant {
            Some(f) => format!(
                "`{shown}` is not a field the host reads: a `{table}` entry has no such field; \
                 did you mean `{}`? ",
                f.name
            ),
            None => format!(
                "`{shown}` is not a field the host reads: a `{table}` entry has no such field. "
            ),
        };
        match meant {
            Some(f) if e.get(f.name).is_some() => message.push_str(&format!(
                "The host ignores `{shown}` and reads the `{}` also set in this entry",
                f.name
            )),
            Some(f) => {
                message.push_str(&format!("The host ignores it, so `{}` ", f.name));
                match f.default {
                    Some(d) => message.push_str(&format!("keeps its default: {d}")),
                    None => message.push_str("is not set at all"),
                }
                if f.launch && e.is_override {
                    message.push_str(&format!(
                        "; and with no launch field this `{table}` entry only overrides the \
                         policy of a server `{}` defined elsewhere",
                        short(&e.id)
                    ));
                }
            }
            None => message.push_str("The host ignores it"),
        }
        if meant.is_none() {
            message.push_str(" (`mcpl-doctor schema config` lists the fields it reads)");
        }
        let d = Draft::at_key(doc, *id, Code::UnknownField, e.field_path(name), message)
            .server(&e.id)
            .field(name);
        typos.push(Typo {
            written: name.to_string(),
            meant,
        });
        out.push(d);
    }
    typos
}

/// For a binding error: the misspelt launch fields that hide `command`, `url` or `transport`.
pub(super) fn hidden_launch_fields(typos: &[Typo]) -> String {
    let hidden: Vec<String> = typos
        .iter()
        .filter_map(|t| {
            let f = t.meant?;
            matches!(f.name, "command" | "url" | "transport").then(|| {
                format!(
                    "`{}` in this entry looks like a misspelt `{}`, which the host does not read",
                    short(&t.written),
                    f.name
                )
            })
        })
        .collect();
    if hidden.is_empty() {
        String::new()
    } else {
        format!(". {}", hidden.join("; "))
    }
}
