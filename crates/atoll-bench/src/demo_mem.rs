//! The memory part of the tour: tracked memory per locale, budgets, and an out-of-memory error
//! that every locale reports the same way, before anything is allocated, and survives.

use crate::check;
use atoll::mem::{MemStats, Mode};
use atoll::prelude::*;

const MIB: u64 = 1 << 20;

/// Shows per-locale memory figures and budgets, provokes an out-of-memory error on one locale
/// and shows that every locale got it and the job goes on. `outside` is the memory that threads
/// outside the job hold (the STREAM baseline's arrays), which locale 0's counter includes.
/// **Collective.**
pub fn memory_tour(ctx: &Ctx, outside: u64) -> Result<()> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    // 8 MiB plus a little per locale, so the rows differ.
    let len = ((8 * MIB + me as u64 * MIB) / 8) as usize;
    let mut a = ctx.alloc_symmetric_for::<f64>("demo::buffer", len)?;
    a.local_mut().fill(me as f64);
    let b = ctx.budget();
    let row = (ctx.memory_used(), b.committed(), b.limit());
    let rows = ctx.gather(0, &row)?;
    let total = ctx.memory_used_all()?;
    if me == 0 {
        println!(
            "\n== Memory: budgets and tracked use per locale (ATOLL_MEM_TRACK={}, ATOLL_MEM_MAX)",
            atoll::mem::mode()
        );
        println!("  {:>6} {:>14} {:>16} {:>14}", "locale", "tracked MiB", "committed MiB", "limit MiB");
        for (l, (used, committed, limit)) in rows.iter().enumerate() {
            let mib = |x: u64| x as f64 / MIB as f64;
            println!("  {l:>6} {:>14.1} {:>16.1} {:>14.1}", mib(*used), mib(*committed), mib(*limit));
        }
        if atoll::mem::tracking_active() {
            println!(
                "  (locale 0's counter also holds the threads outside the job: here the STREAM baseline's workers, started before it, with their {:.0} MiB of arrays)",
                outside as f64 / MIB as f64
            );
            println!("  memory_used_all() = {:.1} MiB; atoll-mem's table for this process:", total as f64 / MIB as f64);
            for line in MemStats::snapshot().to_string().lines() {
                println!("  {line}");
            }
        } else {
            println!("  (tracking is off: committed bytes stand for the allocated memory)");
        }
    }
    check(b.committed() >= len as u64 * 8, "the buffer is committed in the budget")?;
    if atoll::mem::tracking_active() && atoll::mem::mode() == Mode::Full {
        // Full mode charges every block to the locale that allocated it: exact per locale.
        check(ctx.memory_used() >= len as u64 * 8, "the buffer is tracked on its locale")?;
    }

    // The last locale asks for twice its limit; the others for 1 MiB. Nothing is allocated.
    let ask = if me == n - 1 { b.limit().saturating_mul(2) } else { MIB };
    let committed = b.committed();
    let err = match ctx.alloc_symmetric_for::<u8>("demo::too_big", usize::try_from(ask).unwrap_or(usize::MAX)) {
        Ok(_) => return Err(Error::InvalidArgument("demo: the oversized allocation should have failed".into())),
        Err(e) => e,
    };
    let all = ctx.allgather(&err)?;
    check(all.iter().all(|e| *e == err), "every locale got the same error")?;
    check(
        matches!(&err, Error::OutOfMemory { operation, locale, .. } if operation == "demo::too_big" && *locale == n - 1)
            || matches!(&err, Error::InvalidArgument(_)),
        "the error names the operation and the locale",
    )?;
    check(b.committed() == committed && b.reserved() == 0, "nothing was allocated or left reserved")?;

    // The job goes on: a new allocation works, and the first buffer is intact.
    let c = ctx.alloc_symmetric_for::<u64>("demo::after", 1 << 16)?;
    ctx.barrier()?;
    let next = (me + 1) % n;
    check(ctx.get_value(a.ptr(next).add(len / 2))? == next as f64, "the buffer survived the error")?;
    if me == 0 {
        println!("\n== Out of memory, caught and survived: locale {} asked for twice its limit", n - 1);
        println!("  every locale got: {err}");
        println!("  then a new 512 KiB allocation succeeded and the 8 MiB buffers were intact");
    }
    c.free()?;
    a.free()
}
