//! Bounds-checked little- and big-endian integer reads from untrusted bytes: `None` past
//! the end instead of a panic.

/// A little-endian `u16` at `at`.
pub(crate) fn le16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

/// A little-endian `u32` at `at`.
pub(crate) fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

/// A little-endian `u64` at `at`.
pub(crate) fn le64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(
        b.get(at..at.checked_add(8)?)?.try_into().ok()?,
    ))
}

/// A big-endian `u16` at `at`.
pub(crate) fn be16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

/// A big-endian `u32` at `at`.
pub(crate) fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounded() {
        let b = [1u8, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(le16(&b, 0), Some(0x0201));
        assert_eq!(be16(&b, 0), Some(0x0102));
        assert_eq!(le32(&b, 4), Some(0x08070605));
        assert_eq!(be32(&b, 4), Some(0x05060708));
        assert_eq!(le64(&b, 0), Some(0x0807060504030201));
        assert_eq!(le32(&b, 6), None);
        assert_eq!(le16(&b, usize::MAX), None);
    }
}
