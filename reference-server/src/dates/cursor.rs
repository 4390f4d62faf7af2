//! A cursor over the bytes of a date being parsed (numbers, expected bytes).

pub(super) struct Cursor<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
}

impl Cursor<'_> {
    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub(super) fn eat(&mut self, byte: u8) -> bool {
        if self.peek() == Some(byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn eat_str(&mut self, word: &str) -> bool {
        let end = self.pos.saturating_add(word.len());
        if self.bytes.get(self.pos..end) == Some(word.as_bytes()) {
            self.pos = end;
            true
        } else {
            false
        }
    }

    pub(super) fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// Between `min` and `max` ASCII digits as a number.
    pub(super) fn number(&mut self, min: usize, max: usize) -> Option<u32> {
        let start = self.pos;
        let mut value: u32 = 0;
        while self.pos - start < max {
            match self.peek() {
                Some(b) if b.is_ascii_digit() => {
                    value = value.checked_mul(10)?.checked_add(u32::from(b - b'0'))?;
                    self.pos += 1;
                }
                _ => break,
            }
        }
        if self.pos - start < min {
            self.pos = start;
            return None;
        }
        Some(value)
    }

    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }
}
