//! Every command declared in the crate's sources is registered when a session starts, under a
//! name no other command has. A `Handler` declared outside a `commands!` block would be
//! registered by nothing and fail on first use; two commands of one name would share one id
//! (the registry keeps the first). The sources are read here and each name looked up.

use atoll::runtime::{is_registered, Ctx, Handler};
use atoll::Result;
use atoll_session::session;
use std::collections::BTreeSet;
use std::path::Path;

fn noop(_: &Ctx, (): ()) -> Result<()> {
    Ok(())
}

/// The names in `Handler::new("name", ...)` in every source file under `dir`.
fn declared(dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            declared(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&p).unwrap();
            for piece in text.split("Handler::new(\"").skip(1) {
                out.push(piece[..piece.find('"').unwrap()].to_string());
            }
        }
    }
}

#[test]
fn every_declared_command_is_registered_once() {
    let mut names = Vec::new();
    declared(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut names);
    // The examples in the docs name no real command.
    names.retain(|n| n.starts_with("atoll-session::"));
    assert!(names.len() >= 60, "found only {} commands: is the source scan broken?", names.len());
    let unique: BTreeSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "two commands share a name");
    session::start(Some(1), Some("local")).unwrap();
    for name in &names {
        let h: Handler<(), ()> = Handler::new(name.clone().leak(), noop);
        assert!(is_registered(h.id()), "command {name} is not registered");
    }
    let unknown: Handler<(), ()> = Handler::new("atoll-session::no_such_command", noop);
    assert!(!is_registered(unknown.id()), "the lookup finds names nobody registered");
    session::stop().unwrap();
}
