//! Zobrist keys, fixed at compile time so hashes are stable across runs and machines
//! (transposition tables and saved games may compare them).

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> ([[u64; 64]; 4], u64) {
    let mut keys = [[0u64; 64]; 4];
    let mut state = 0x5348_4153_484B_4921; // arbitrary fixed seed
    let mut p = 0;
    while p < 4 {
        let mut b = 0;
        while b < 64 {
            let (s, k) = splitmix(state);
            state = s;
            keys[p][b] = k;
            b += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    (keys, side)
}

const KEYS: ([[u64; 64]; 4], u64) = make_keys();

/// Key of a piece: `kind` is 0 white man, 1 white king, 2 black man, 3 black king.
#[inline(always)]
pub(crate) fn piece(kind: usize, bit: u8) -> u64 {
    KEYS.0[kind][bit as usize & 63]
}

/// Xored in when Black is to move.
pub(crate) const SIDE: u64 = KEYS.1;

/// Hash of every piece in a bitboard of one kind.
#[inline]
pub(crate) fn board(kind: usize, mut bb: u64) -> u64 {
    let mut h = 0;
    while bb != 0 {
        h ^= piece(kind, bb.trailing_zeros() as u8);
        bb &= bb - 1;
    }
    h
}
