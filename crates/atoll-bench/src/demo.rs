//! `make demo`: a short tour of what Atoll does today, on the embedded (local) backend with 4
//! locales (`ATOLL_LOCALES` changes the count). Every step checks its result.

use atoll::prelude::*;

// Memory tracking (`ATOLL_MEM_TRACK`, default count; `ATOLL_MEM_STATS=1`, `ATOLL_MEM_LEAKS=1`).
atoll::mem::track_memory!();

mod baseline;
mod demo_agg;
mod demo_arrays;
mod demo_mem;
mod demo_sort;
mod demo_stencil;
use std::time::Instant;

fn hello(ctx: &Ctx, from: usize) -> Result<String> {
    Ok(format!("locale {} ({}) greets locale {from}", ctx.id(), ctx.here().name()))
}
static HELLO: Handler<usize, String> = Handler::new("demo::hello", hello);

fn local_sum(ctx: &Ctx, n: u64) -> Result<u64> {
    // Each locale sums its share of 0..n with a forall on its own task pools, then all combine.
    let per = n.div_ceil(ctx.num_locales() as u64);
    let lo = (ctx.id() as u64 * per).min(n);
    let hi = (lo + per).min(n);
    let mine = ctx.forall_reduce(lo as usize..hi as usize, 0u64, |a, i| a + i as u64, |a, b| a + b);
    ctx.allreduce(mine, |a, b| a + b)
}
static LOCAL_SUM: Handler<u64, u64> = Handler::new("demo::local_sum", local_sum);

fn check(cond: bool, what: &str) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("demo check failed: {what}")))
    }
}

fn tour(ctx: &Ctx, baseline: &baseline::Baseline) -> Result<()> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    if me == 0 {
        println!("== Locales and sublocales ({} backend)", ctx.backend_name());
        for l in ctx.locales() {
            println!("  {:<24} {} sublocale(s), {} thread(s)", l.name, l.sublocales, l.threads);
        }
        for s in ctx.here().children() {
            println!("  locale 0 sublocale {}: cores {:?}", s.index(), s.cores());
        }
    }
    ctx.barrier()?;

    // SPMD collectives.
    let total = ctx.allreduce(me as u64 + 1, |a, b| a + b)?;
    check(total == (n * (n + 1) / 2) as u64, "allreduce")?;
    let offset = ctx.exscan(10u64, 0, |a, b| a + b)?;
    check(offset == 10 * me as u64, "exscan")?;
    if me == 0 {
        println!("\n== Collectives: allreduce of 1..={n} = {total}; exclusive scan gives each locale its offset");
    }

    // Registered memory and one-sided access.
    ctx.start_comm_diagnostics()?;
    let mut a = ctx.alloc_symmetric::<f64>(1 << 16)?;
    for (i, x) in a.local_mut().iter_mut().enumerate() {
        *x = (me * 1_000_000 + i) as f64;
    }
    ctx.barrier()?;
    let next = (me + 1) % n;
    let mut row = vec![0.0; 8];
    ctx.get(a.ptr(next).add(100), &mut row)?;
    check(row[0] == (next * 1_000_000 + 100) as f64, "get")?;
    let mut strided = vec![0.0; 1000];
    ctx.get_strided(a.ptr(next), &[1000], &[16], &mut strided)?;
    check(strided[999] == (next * 1_000_000 + 999 * 16) as f64, "strided get")?;
    ctx.put(a.ptr(next).add(7), &[-1.0])?;
    let counter = ctx.alloc_symmetric::<u64>(1)?;
    for _ in 0..10 {
        ctx.fetch_add(counter.ptr(0), 1)?;
    }
    ctx.barrier()?;
    check(a.local()[7] == -1.0, "put")?;
    let hits = ctx.get_value(counter.ptr(0))?;
    check(hits == 10 * n as u64, "fetch_add")?;
    if me == 0 {
        println!(
            "\n== One-sided access: get, strided get (1000 doubles in one message), put, atomics: counter = {hits}"
        );
    }

    // Active messages.
    let greeting = ctx.on(next, &HELLO, me)?;
    check(greeting.starts_with(&format!("locale {next}")), "on")?;
    if me == 0 {
        println!("\n== Active messages: on(locale {next}) -> \"{greeting}\"");
        let all = ctx.coforall_locales(&HELLO, 0)?;
        println!("   coforall over locales: {} replies", all.len());
    }
    ctx.stop_comm_diagnostics()?;
    if me == 0 {
        println!("\n== Communication diagnostics (per locale, as Chapel's printCommDiagnosticsTable)");
    }
    ctx.print_comm_diagnostics_table()?;
    let stats = ctx.registration_stats();
    let rates = ctx.allgather(&stats.remote_hit_rate())?;
    if me == 0 {
        println!(
            "   registration cache hit rate per locale: {:?}",
            rates.iter().map(|r| format!("{r:.3}")).collect::<Vec<_>>()
        );
    }
    counter.free()?;
    a.free()?;

    // Tasks on this locale.
    let t = Instant::now();
    let s = ctx.forall_reduce(0..10_000_000, 0u64, |a, i| a + (i as u64 & 0xff), |a, b| a + b);
    check(s == (0..10_000_000u64).map(|i| i & 0xff).sum::<u64>(), "forall_reduce")?;
    if me == 0 {
        println!(
            "\n== Tasks: forall_reduce over 10M indices on locale 0's {} thread(s) in {:.1} ms (dynamic chunks, deterministic combine)",
            ctx.here().num_threads(),
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    demo_arrays::arrays_tour(ctx, baseline)?;
    demo_agg::aggregation_tour(ctx)?;
    demo_stencil::stencil_tour(ctx)?;
    demo_sort::sort_tour(ctx)?;
    demo_mem::memory_tour(ctx, (3 * baseline.len() * size_of::<f64>()) as u64)?;
    Ok(())
}

fn main() {
    // The standard library's start-up blocks live until exit: not leaks (ATOLL_MEM_LEAKS=1).
    atoll::mem::mark_live_blocks_permanent();
    HELLO.register();
    LOCAL_SUM.register();
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("atoll-demo: {e}");
            std::process::exit(2);
        }
    };
    // The STREAM baseline's threads start before the job, so they are not pinned to a locale.
    let threads = std::thread::available_parallelism().map(|x| x.get()).unwrap_or(1);
    let baseline = baseline::Baseline::new(1 << 24, threads, 3.0);
    let spmd = run(config.clone(), |ctx| tour(ctx, &baseline));
    let driven = spmd.and_then(|_| {
        run_driver(config, |d| {
            let n = 50_000_000u64;
            let sums = d.exec(&LOCAL_SUM, n)?;
            check(sums.iter().all(|&s| s == n * (n - 1) / 2), "driver sum")?;
            println!(
                "\n== Driver mode: one program on locale 0 ran a collective command on {} locales: sum 0..{n} = {}",
                d.num_locales(),
                sums[0]
            );
            Ok(())
        })
    });
    match driven {
        Ok(()) => println!("\ndemo ok"),
        Err(e) => {
            eprintln!("atoll-demo failed: {e}");
            std::process::exit(1);
        }
    }
}
