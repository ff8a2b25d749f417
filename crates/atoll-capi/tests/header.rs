//! `include/atoll.h` declares exactly the functions that `src/lib.rs` exports, and its
//! constants equal the crate's.

use std::collections::BTreeSet;

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn header_declares_every_exported_function_and_constant() {
    let header = std::fs::read_to_string(root().join("include/atoll.h")).unwrap();
    let src = std::fs::read_to_string(root().join("crates/atoll-capi/src/lib.rs")).unwrap();
    let declared: BTreeSet<String> = header
        .lines()
        .filter(|l| {
            !l.trim_start().starts_with('#') && !l.trim_start().starts_with('*') && !l.trim_start().starts_with("/*")
        })
        .filter_map(|l| {
            let i = l.find("atoll_")?;
            let rest = &l[i..];
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            rest[name.len()..].starts_with('(').then_some(name)
        })
        .collect();
    let exported: BTreeSet<String> = src
        .split("#[no_mangle]")
        .skip(1)
        .filter_map(|chunk| {
            let i = chunk.find("fn ")?;
            Some(chunk[i + 3..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect())
        })
        .collect();
    assert!(!exported.is_empty());
    assert_eq!(declared, exported, "include/atoll.h and crates/atoll-capi/src/lib.rs disagree");
    for (name, value) in [
        ("ATOLL_OK", atoll_capi::ATOLL_OK),
        ("ATOLL_E_INVALID", atoll_capi::ATOLL_E_INVALID),
        ("ATOLL_E_FILE", atoll_capi::ATOLL_E_FILE),
        ("ATOLL_E_TIMEOUT", atoll_capi::ATOLL_E_TIMEOUT),
        ("ATOLL_E_IO", atoll_capi::ATOLL_E_IO),
        ("ATOLL_E_OTHER", atoll_capi::ATOLL_E_OTHER),
        ("ATOLL_NUM_SIGNALS", atoll_share::NUM_SIGNALS as i32),
    ] {
        assert!(header.contains(&format!("#define {name} {value}")), "{name} should be {value} in the header");
    }
    for d in 1..=10u32 {
        let t = atoll_share::CType::from_code(d).unwrap();
        assert!(header.contains(&format!("#define ATOLL_{} {d}", t.name().to_uppercase())), "dtype {d}");
    }
}
