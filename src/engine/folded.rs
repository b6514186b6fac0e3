//! Bounded records of what a server sends: a list that keeps a count plus its first and last
//! few items ([`FoldedList`]), and text cut to a length ([`short_text`]).
//!
//! A server controls how often it registers a channel, sends content, asks the host something
//! or lists a tool, and how long each name is. Whatever it does, what the probe keeps of it (per
//! connection, and per run) is a count and the first and last [`KEEP`] items, and no kept text
//! is longer than [`TEXT_MAX`] characters: a busy server's opening costs the same as a quiet
//! one's. Every format says how many items were left out ("… 1,204,311 more").

use std::collections::VecDeque;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};

use super::redact::Redactor;

/// The items kept at each end of a [`FoldedList`].
pub(crate) const KEEP: usize = 8;

/// The most characters kept of one text a server sent (a name, an id, a message).
pub(crate) const TEXT_MAX: usize = 256;

/// A list of which only a count and the first and last [`KEEP`] items are kept, in order. The
/// items between are counted ([`FoldedList::folded`]), not kept. Serialised as the list of
/// the kept items (the first, then the last); the owner says how many were folded.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FoldedList<T> {
    first: Vec<T>,
    last: VecDeque<T>,
    total: u64,
}

impl<T> Default for FoldedList<T> {
    fn default() -> Self {
        FoldedList {
            first: Vec::new(),
            last: VecDeque::new(),
            total: 0,
        }
    }
}

impl<T> FoldedList<T> {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Add an item at the end; the oldest of the last ones is folded when there are more than
    /// `2 * KEEP`.
    pub(crate) fn push(&mut self, item: T) {
        self.total += 1;
        if self.first.len() < KEEP {
            self.first.push(item);
            return;
        }
        self.last.push_back(item);
        if self.last.len() > KEEP {
            self.last.pop_front();
        }
    }

    /// Count `n` items never seen one by one (folded where they were read) as if pushed here:
    /// the first ones kept stay, the last ones kept are those pushed after.
    pub(crate) fn skip(&mut self, n: u64) {
        if n == 0 {
            return;
        }
        self.total += n;
        // What was kept at the end is no longer next to what follows: folded too, so the
        // kept items stay in order with one gap.
        self.last.clear();
    }

    /// Items pushed in all (kept and folded).
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// Items left out between the first and the last kept ones.
    pub(crate) fn folded(&self) -> u64 {
        self.total - (self.first.len() + self.last.len()) as u64
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// How many items are kept (at most `2 * KEEP`).
    pub(crate) fn len(&self) -> usize {
        self.first.len() + self.last.len()
    }

    /// The kept items, cloned.
    #[cfg(test)]
    pub(crate) fn to_vec(&self) -> Vec<T>
    where
        T: Clone,
    {
        self.iter().cloned().collect()
    }

    /// The kept items: the first ones, then the last ones.
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + Clone {
        self.first.iter().chain(self.last.iter())
    }

    /// The kept items, mutably.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.first.iter_mut().chain(self.last.iter_mut())
    }

    /// The item pushed `seq`-th (0-based), when it is kept.
    pub(crate) fn get_mut(&mut self, seq: u64) -> Option<&mut T> {
        let first = self.first.len() as u64;
        if seq < first {
            return self.first.get_mut(seq as usize);
        }
        let last_start = self.total - self.last.len() as u64;
        if seq >= last_start && seq < self.total {
            return self.last.get_mut((seq - last_start) as usize);
        }
        None
    }

    /// The first item pushed.
    pub(crate) fn first(&self) -> Option<&T> {
        self.first.first()
    }

    /// The last item pushed.
    #[cfg(test)]
    pub(crate) fn last(&self) -> Option<&T> {
        self.last.back().or_else(|| self.first.last())
    }

    /// A list of the same shape with every kept item mapped; the count stays.
    pub(crate) fn map<U>(&self, f: impl FnMut(&T) -> U) -> FoldedList<U> {
        let mut f = f;
        FoldedList {
            first: self.first.iter().map(&mut f).collect(),
            last: self.last.iter().map(&mut f).collect(),
            total: self.total,
        }
    }

    /// Where the fold is: the number of kept items before it (None: nothing folded).
    pub(crate) fn fold_at(&self) -> Option<usize> {
        (self.folded() > 0).then_some(self.first.len())
    }
}

/// The `i`-th kept item (the first ones, then the last ones).
impl<T> std::ops::Index<usize> for FoldedList<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        match self.first.get(i) {
            Some(x) => x,
            None => &self.last[i - self.first.len()],
        }
    }
}

impl<'a, T> IntoIterator for &'a FoldedList<T> {
    type Item = &'a T;
    type IntoIter =
        std::iter::Chain<std::slice::Iter<'a, T>, std::collections::vec_deque::Iter<'a, T>>;

    fn into_iter(self) -> Self::IntoIter {
        self.first.iter().chain(self.last.iter())
    }
}

impl<T> FromIterator<T> for FoldedList<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut l = FoldedList::new();
        l.extend(iter);
        l
    }
}

impl<T> Extend<T> for FoldedList<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for x in iter {
            self.push(x);
        }
    }
}

impl<T: Serialize> Serialize for FoldedList<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.first.len() + self.last.len()))?;
        for x in self.iter() {
            seq.serialize_element(x)?;
        }
        seq.end()
    }
}

impl<T: JsonSchema> JsonSchema for FoldedList<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Vec<T>>::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        <Vec<T>>::schema_id()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        <Vec<T>>::json_schema(generator)
    }
}

/// For `skip_serializing_if` on a fold count.
pub(crate) fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `text` redacted and cut to [`TEXT_MAX`] characters ("…" ends a cut one). Only the start of
/// a long text is redacted (enough to cover any secret that begins in what is kept), so a
/// server's megabyte-long name costs neither memory nor time.
pub(crate) fn short_text(redactor: &Redactor, text: &str) -> String {
    text_within(redactor, text, TEXT_MAX)
}

/// [`short_text`] cut to `max` characters.
pub(crate) fn text_within(redactor: &Redactor, text: &str, max: usize) -> String {
    let margin = redactor.longest().max(4096);
    match text.char_indices().nth(max + margin) {
        None => clip(redactor.redact(text), max),
        Some((cut, _)) => clip(redactor.redact_cut(&text[..cut]) + "…", max),
    }
}

/// `text` cut to `max` characters, "…" ending a cut one.
pub(crate) fn clip(text: String, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text,
        Some((cut, _)) => {
            let mut t = text;
            t.truncate(cut);
            t.push('…');
            t
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_and_last_and_counts_the_rest() {
        let l: FoldedList<u32> = (0..1000).collect();
        assert_eq!(l.total(), 1000);
        assert_eq!(l.folded(), 1000 - 2 * KEEP as u64);
        let kept: Vec<u32> = l.iter().copied().collect();
        let want: Vec<u32> = (0..8).chain(992..1000).collect();
        assert_eq!(kept, want);
        assert_eq!(l.first(), Some(&0));
        assert_eq!(l.last(), Some(&999));
        assert_eq!(l.fold_at(), Some(KEEP));
        assert_eq!(
            serde_json::to_value(&l)
                .unwrap_or_default()
                .as_array()
                .map(Vec::len),
            Some(16)
        );
    }

    #[test]
    fn a_short_list_is_kept_whole() {
        for n in 0..=2 * KEEP as u32 {
            let l: FoldedList<u32> = (0..n).collect();
            assert_eq!(l.folded(), 0);
            assert_eq!(l.fold_at(), None);
            assert_eq!(
                l.iter().copied().collect::<Vec<_>>(),
                (0..n).collect::<Vec<_>>()
            );
            assert_eq!(l.last(), n.checked_sub(1).as_ref());
        }
    }

    #[test]
    fn get_mut_reaches_kept_items_by_their_push_number() {
        let mut l: FoldedList<u32> = (0..100).collect();
        assert_eq!(l.get_mut(3).copied(), Some(3));
        assert_eq!(l.get_mut(50), None);
        assert_eq!(l.get_mut(95).copied(), Some(95));
        assert_eq!(l.get_mut(100), None);
        if let Some(x) = l.get_mut(99) {
            *x = 7;
        }
        assert_eq!(l.last(), Some(&7));
        let mut short: FoldedList<u32> = (0..10).collect();
        assert_eq!(short.get_mut(9).copied(), Some(9));
        assert_eq!(short.get_mut(8).copied(), Some(8));
    }

    #[test]
    fn map_keeps_the_count() {
        let l: FoldedList<u32> = (0..40).collect();
        let m = l.map(|x| x.to_string());
        assert_eq!(m.total(), 40);
        assert_eq!(m.folded(), l.folded());
        assert_eq!(m.last().map(String::as_str), Some("39"));
    }

    #[test]
    fn short_text_cuts_and_redacts_what_it_keeps() {
        let mut r = Redactor::new();
        r.add("hunter2-secret");
        assert_eq!(short_text(&r, "a hunter2-secret b"), "a [redacted] b");
        let long = "x".repeat(1 << 20);
        let t = short_text(&r, &long);
        assert_eq!(t.chars().count(), TEXT_MAX + 1);
        assert!(t.ends_with('…'));
        // A secret straddling the cut is masked, not shown in part.
        let straddle = format!(
            "{}hunter2-secret{}",
            "y".repeat(TEXT_MAX - 4),
            "z".repeat(9000)
        );
        let t = short_text(&r, &straddle);
        assert!(!t.contains("hunt"), "{t}");
        assert!(t.chars().count() <= TEXT_MAX + 1);
    }
}
