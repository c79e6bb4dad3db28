//! Native functions as wholes: the calling convention between them
//! (`native_signature`, the registers' places in the context), the
//! trampoline and the other entry functions Rust calls, and where each
//! function's code lands in memory (placement in its page, dumps, names
//! for profilers). Owns nothing of the `Translator`: it may touch only the
//! `JITModule` and a `FunctionBuilder` of its own.

use super::regions::{declare_regions, trusted};
use crate::jit::{JitCtx, NativeFn};
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{AbiParam, InstBuilder, SigRef, Type, Value};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::Module;
use std::mem::offset_of;

/// How native functions call each other: the context, then the machine
/// registers (`tos`, depth, return depth, frame count, steps) in machine
/// registers both ways, after the status. The `Tail` convention returns
/// them all in registers.
pub(super) fn native_signature(module: &JITModule) -> cranelift_codegen::ir::Signature {
    let ptr = module.target_config().pointer_type();
    let mut sig = cranelift_codegen::ir::Signature::new(cranelift_codegen::isa::CallConv::Tail);
    sig.params.push(AbiParam::new(ptr));
    sig.params.extend([I32, I32, I32, I32, I64].map(AbiParam::new));
    sig.returns.extend([I32, I32, I32, I32, I32, I64].map(AbiParam::new));
    sig
}

/// The way in from Rust: `status = trampoline(ctx, f)` runs native
/// function `f` on the registers in the context, and puts them back when
/// it returns normally (any other ending has stored them already).
pub(in crate::jit) type Trampoline = unsafe extern "C" fn(*mut JitCtx, NativeFn) -> u32;

pub(in crate::jit) fn trampoline(module: &mut JITModule) -> Option<Trampoline> {
    let code = entry_function(module, "the trampoline", |b, native, c, f| {
        let fields = scalar_fields();
        let mut args = vec![c];
        for (ty, off) in fields {
            args.push(b.ins().load(ty, trusted(), c, off as i32));
        }
        let call = b.ins().call_indirect(native, f, &args);
        let results = b.inst_results(call).to_vec();
        let done = b.create_block();
        let out = b.create_block();
        b.ins().brif(results[0], out, &[], done, &[]);
        b.switch_to_block(done);
        for ((_, off), &x) in fields.iter().zip(&results[1..]) {
            b.ins().store(trusted(), x, c, *off as i32);
        }
        b.ins().jump(out, &[]);
        b.switch_to_block(out);
        b.ins().return_(&results[..1]);
    })?;
    // SAFETY: built with the signature of `Trampoline`.
    Some(unsafe { std::mem::transmute::<*const u8, Trampoline>(code) })
}

/// A function Rust calls, `extern "C" fn(ctx, x) -> u32` (`x` a pointer
/// or a pointer-sized value), whose body `build` writes from its entry
/// block, given the native functions' signature, `ctx` and `x`. Its code
/// is printed under `AXFORTH_JIT_DUMP`.
pub(super) fn entry_function(
    module: &mut JITModule,
    what: &str,
    build: impl FnOnce(&mut FunctionBuilder, SigRef, Value, Value),
) -> Option<*const u8> {
    let ptr = module.target_config().pointer_type();
    let mut sig = module.make_signature();
    sig.params.extend([AbiParam::new(ptr), AbiParam::new(ptr)]);
    sig.returns.push(AbiParam::new(I32));
    let id = declare_named(module, what, &sig)?;
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    let mut fctx = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        declare_regions(&mut b);
        let native = b.import_signature(native_signature(module));
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let (c, x) = (b.block_params(entry)[0], b.block_params(entry)[1]);
        build(&mut b, native, c, x);
        b.seal_all_blocks();
        b.finalize(module.target_config());
    }
    let dump = std::env::var_os("AXFORTH_JIT_DUMP").is_some();
    ctx.set_disasm(dump);
    place(module, id)?;
    if let Err(e) = module.define_function(id, &mut ctx) {
        // Built from no script: a failure is ours, and without the loop
        // everything would still work, only slower; debug builds (the
        // tests) say so.
        debug_assert!(false, "{what} does not compile: {e:?}");
        return None;
    }
    if dump {
        if let Some(code) = ctx.compiled_code() {
            eprintln!("---- {what}:\n{}", code.vcode.as_deref().unwrap_or(""));
        }
    }
    let size = ctx.compiled_code().map_or(0, |c| c.code_buffer().len());
    module.clear_context(&mut ctx);
    module.finalize_definitions().ok()?;
    let code = module.get_finalized_function(id);
    dump_bytes(code, size);
    Some(code)
}

/// Chooses where function `id`'s code starts in its page, by laying a
/// filler (never jumped to) of some cache lines before it. Each function
/// is finalized on its own, so each would otherwise start a page: the
/// first lines of all of them (their entries and most often their hottest
/// paths) would map to the same few sets of the instruction cache and of
/// the branch predictor's tables, which index by the low bits of an
/// address. Spread this way, tic-tac-toe perft 9 and draughts perft 8 run
/// about 4% faster. Needs the module's memory to go on where the filler
/// ends (`Jit::module`'s arena).
pub(super) fn place(module: &mut JITModule, id: cranelift_module::FuncId) -> Option<()> {
    const LINE: usize = 64;
    // Fibonacci hashing of the id to one of the 64 lines of a page:
    // successive ids (a function's filler takes one too) land far apart.
    let lines = (id.as_u32().wrapping_mul(0x9e37_79b9) >> 26) as usize;
    if lines == 0 {
        return Some(());
    }
    let filler = module.declare_anonymous_function(&module.make_signature()).ok()?;
    module.define_function_bytes(filler, LINE as u64, &vec![0xcc; lines * LINE], &[]).ok()
}

/// When `AXFORTH_JIT_DUMP` names a directory, writes a function's machine
/// code there as `ADDRESS.bin` (hex), so a profiler's samples, which only
/// know addresses, can be read against a disassembly
/// (`objdump -D -b binary -mi386:x86-64 --adjust-vma=0xADDRESS`).
pub(super) fn dump_bytes(code: *const u8, size: usize) {
    let Some(dir) = std::env::var_os("AXFORTH_JIT_DUMP").map(std::path::PathBuf::from).filter(|d| d.is_dir()) else {
        return;
    };
    // SAFETY: `code` is the start of a finalized function of `size` bytes.
    let bytes = unsafe { std::slice::from_raw_parts(code, size) };
    let _ = std::fs::write(dir.join(format!("{:x}.bin", code as usize)), bytes);
}

/// A function named for profilers: under `perf record` (which sets
/// `PERF_BUILDID_DIR`), Cranelift writes each function's name and place to
/// `/tmp/perf-PID.map`, so native code shows as the word it came from. A
/// word's code may be made again (`Vm::jit_discard`): the serial keeps
/// names unique in the module.
pub(super) fn declare_named(module: &mut JITModule, name: &str, sig: &cranelift_codegen::ir::Signature) -> Option<cranelift_module::FuncId> {
    static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    module.declare_function(&format!("{name} #{serial}"), cranelift_module::Linkage::Local, sig).ok()
}

/// The machine registers' places in the context, in signature order.
pub(super) fn scalar_fields() -> [(Type, usize); 5] {
    [
        (I32, offset_of!(JitCtx, tos)),
        (I32, offset_of!(JitCtx, depth)),
        (I32, offset_of!(JitCtx, rdepth)),
        (I32, offset_of!(JitCtx, fp)),
        (I64, offset_of!(JitCtx, steps)),
    ]
}
