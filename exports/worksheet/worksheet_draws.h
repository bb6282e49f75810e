#pragma once
// The draws of a worksheet variant's numbers, and whether a drawn transformer cell is workable by
// hand (worksheet_draws.cpp; an attention cell's check is unworkableReason, in
// worksheet_variants.h). Internal to exports/worksheet: the plan (worksheet_variants.cpp) calls
// them, with its retries.

#include "exports/worksheet/worksheet_variants.h"

#include <cstdint>
#include <string>

namespace attnbook {

// Draws every key of `vary` into a copy of `spec`, in key order; a reason when the cell cannot
// vary as asked. Throws InvalidConfig when the cell's shapes do not resolve (it computed before,
// so they do).
std::string drawInto(AttentionCellSpec& spec, VariantRandom& random);

// FNV-1a of a cell's id: the same on every platform, unlike std::hash.
std::uint64_t idHash(const std::string& id);

// Draws a transformer cell's variant `number` into `spec`: the keys of `vary` (vocab or X), then
// the token order and the word at the focus row, stepping from `base` (from the seed and the
// cell); a reason when the cell cannot vary as asked.
std::string drawTransformerInto(TransformerCellSpec& spec, VariantRandom& random,
                                std::uint64_t base, int number);

// Why a transformer variant is not workable by hand, or "".
std::string transformerUnworkableReason(const TransformerCellSpec& spec,
                                        const TransformerResult& r);

} // namespace attnbook
