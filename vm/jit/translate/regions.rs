//! The parts of memory native code touches (`Region`), as alias regions
//! and memory flags for Cranelift, declared in every function built. Owns
//! only the flags: what lies in each region is the other files' to say.

use cranelift_codegen::ir::{AliasRegion, AliasRegionData, MemFlagsData};
use cranelift_frontend::FunctionBuilder;

pub(super) fn trusted() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// The memory native code touches, in parts that never overlap. Tagging
/// each access with its part lets Cranelift keep a value it loaded (or
/// stored) across stores to other parts: `here` stored by a step is
/// forwarded to the next step, and the board's shape read once, instead
/// of every store counting as a fence. A call may change anything.
#[derive(Clone, Copy)]
pub(super) enum Region {
    /// The data and return stacks and the call frames.
    Stacks,
    /// `JitCtx`.
    Ctx,
    /// `Context::here` of the move generator.
    Here,
    /// The rest of `Game` native code reads: the board's shape, the other
    /// generation fields.
    Game,
    /// The data space (the board's cells included).
    Data,
    /// `Board::walk`, `Dictionary::targets`, `Jit::slots`.
    Tables,
    /// The move generator's edits and moves (`Buf`s: their fields and
    /// what they hold).
    Moves,
}

const REGIONS: [(Region, &str); 7] = [
    (Region::Stacks, "stacks"),
    (Region::Ctx, "ctx"),
    (Region::Here, "here"),
    (Region::Game, "game"),
    (Region::Data, "data space"),
    (Region::Tables, "tables"),
    (Region::Moves, "moves"),
];

/// Declares the regions in a function about to be built, in `Region`
/// order, so `in_region` names them by number.
pub(super) fn declare_regions(b: &mut FunctionBuilder) {
    for (i, (_, name)) in REGIONS.iter().enumerate() {
        let r = b.func.dfg.alias_regions.insert(AliasRegionData { user_id: i as u32, description: (*name).into() });
        debug_assert_eq!(r.as_u32(), i as u32);
    }
}

/// An aligned, in-bounds access to `region`.
pub(super) fn in_region(region: Region) -> MemFlagsData {
    MemFlagsData::trusted().with_alias_region(Some(AliasRegion::from_u32(region as u32)))
}

/// The VM's own state: stacks and frames.
pub(super) fn stacks() -> MemFlagsData {
    in_region(Region::Stacks)
}

pub(super) fn ctx_field() -> MemFlagsData {
    in_region(Region::Ctx)
}

/// A context field no code changes while native code runs.
pub(super) fn ctx_fixed() -> MemFlagsData {
    ctx_field().with_readonly().with_can_move()
}

/// Data space: in bounds (checked) but of any alignment.
pub(super) fn data() -> MemFlagsData {
    MemFlagsData::new().with_notrap().with_alias_region(Some(AliasRegion::from_u32(Region::Data as u32)))
}
