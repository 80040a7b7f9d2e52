//! Code written with the parentheses rustc's unused_parens lint finds
//! unnecessary, for lore's round trip through `cargo fix`.

use std::collections::HashMap;

pub struct Counter {
    counts: HashMap<String, usize>,
    total: usize,
}

pub enum Shape {
    Circle(f64),
    Rect(f64, f64),
}

impl Counter {
    pub fn new() -> Self {
        let counts = (HashMap::new());
        Counter { counts, total: (0) }
    }

    pub fn add(&mut self, word: &str) -> usize {
        let n = (self.counts.entry(word.to_string()).or_insert(0));
        *n += (1);
        self.total += (1);
        (*n)
    }

    pub fn get(&self, word: &str) -> usize {
        if (self.counts.contains_key(word)) {
            return (self.counts[word]);
        }
        0
    }

    pub fn most(&self) -> Option<(&str, usize)> {
        let mut best: Option<(&str, usize)> = None;
        for (w, n) in (self.counts.iter()) {
            match (best) {
                Some((_, b)) if b >= *n => {}
                _ => best = Some((w.as_str(), *n)),
            }
        }
        best
    }
}

impl Default for Counter {
    fn default() -> Self {
        Self::new()
    }
}

pub fn area(s: &Shape) -> f64 {
    match (s) {
        Shape::Circle(r) => (3.14159 * r * r),
        Shape::Rect(w, h) => {
            (w * h)
        }
    }
}

pub fn sum_to(n: u64) -> u64 {
    let mut total = (0);
    let mut i = (0);
    while (i <= n) {
        total += (i);
        i += 1;
    }
    total
}

pub fn first_even(v: &[i64]) -> Option<i64> {
    for x in (v) {
        if ((x % 2) == 0) {
            return (Some(*x));
        }
    }
    None
}

pub fn loop_until(limit: u32) -> u32 {
    let mut k = 0;
    let found = loop {
        k += 1;
        if (k * k > limit) {
            break (k);
        }
    };
    (found)
}

pub fn index_of(v: &[u8], i: usize) -> u8 {
    v[(i)]
}

pub fn call_twice(f: fn(u8) -> u8, x: u8) -> u8 {
    f((f((x))))
}

pub fn maybe(o: Option<u8>) -> u8 {
    if let Some(v) = (o) {
        return v;
    }
    let Some(w) = (o) else { return 0 };
    w
}

pub fn closures(v: &[u32]) -> Vec<u32> {
    v.iter().map(|x| (x + 1)).filter(|x| (*x > 2)).collect()
}

pub fn array() -> [u8; 3] {
    let a = [(1), 2, (3)];
    a
}

pub fn unary(x: i32) -> i32 {
    let y = -(x);
    let b = !(x > 0);
    if (b) { (y) } else { (x) }
}

pub fn grouped(a: i32, b: i32, c: i32) -> i32 {
    (a + b) * c
}

pub fn tuple(a: i32) -> (i32,) {
    (a,)
}

pub fn cast(a: u8) -> u32 {
    let x = (a as u32);
    (x) << 2
}

pub fn with_macro(a: u8) -> String {
    format!("{}", (a))
}

pub const LIMIT: usize = (16);
pub static NAME: &str = ("counter");

pub fn typed(x: (u8)) -> (u16) {
    let y: (u16) = (x as u16);
    y
}
