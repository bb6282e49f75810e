#pragma once
// Doubles to and from decimal text, independent of the locale and of the standard library's
// floating-point <charconv>: std::to_chars and std::from_chars for double are missing from
// some standard libraries the core is built with (libc++ before LLVM 20 has no floating-point
// from_chars; the libc++ of emscripten 3.1.6, which builds the core for the browser, has
// neither). One implementation for every build, so the native and the browser builds write
// and read the same text.
//
// Both follow no locale (Qt sets LC_NUMERIC from the environment, under which strtod and printf
// would read and write "0,5" under de_DE) and both are Google's double-conversion (Debian
// libdouble-conversion-dev, which Qt itself links): its shortest digits are those to_chars
// finds (Grisu3 with an exact fallback), and it reads the nearest double as from_chars does.
// The text around the digits (fixed or scientific, which characters a number may have) is
// this file's, made to match <charconv> exactly (checked against libstdc++ on millions of
// doubles).

#include <charconv>
#include <string>

namespace attnbook {

// The text std::to_chars(first, last, value) writes for a finite double: the fewest
// significant digits that read back to `value`, in fixed or scientific notation, whichever is
// shorter (fixed on a tie), a large whole number in fixed notation with its exact digits.
// "inf", "-inf" and "nan" for the others.
std::string shortestDecimal(double value);

// std::from_chars(first, last, value) for a double in chars_format::general: an optional
// '-', then "inf", "infinity", "nan", "nan(...)" (any case) or digits with an optional '.' and
// an optional exponent; no leading space, no '+', no hexadecimal. On success ec is errc() and
// ptr points past the number; on no number, errc::invalid_argument with ptr == first; past
// the range of double, errc::result_out_of_range with ptr past the number. `value` is changed
// only on success.
std::from_chars_result decimalFromChars(const char* first, const char* last, double& value);

} // namespace attnbook
