#pragma once
// Python source text for the lesson's notebook: literals for strings and numbers, matrices as
// lists of rows, chart formulas in NumPy, and the functions that every cell's code calls.
// Numbers are written in their shortest round-trip form, so the notebook starts from exactly
// the doubles attnbook computed with.

#include <armadillo>

#include <string>
#include <vector>

namespace attnbook {

// A Python str literal in double quotes: backslash, quote and control characters escaped,
// everything else (UTF-8 included) as is.
std::string pythonString(const std::string& text);
// ["red", "blue", "red"]
std::string pythonStrings(const std::vector<std::string>& texts);
// The shortest text that reads back to the same double in Python ("0.5", "1e-05", "3").
std::string pythonNumber(double value);
// [1, 0, 0.5]
std::string pythonVector(const arma::rowvec& values);
// One row per line, each indented by `indent` + 4 spaces, the closing bracket by `indent`:
//   [
//       [1, 0],
//       [0, 1],
//   ]
std::string pythonMatrix(const arma::mat& values, int indent = 0);
// [True, False]
std::string pythonFlags(const std::vector<bool>& flags);

// A name usable as a Python variable: `name` itself when it is an identifier that is no
// keyword and not one of the names the notebook's code defines, else `name` made one.
std::string pythonVariable(const std::string& name);

// A chart formula (muParser syntax: + - * / ^, parentheses, sqrt, exp, log, min, max, ...)
// as a NumPy expression in the Python variable `variable`, which stands for the formula's
// variable `formulaVariable`: "n^2/2" → "n**2/2".
std::string numpyFormula(const std::string& formula, const std::string& formulaVariable,
                         const std::string& variable);

// The first code cell: NumPy, the result dictionary and the shared functions (softmax with the
// row maximum subtracted, masks, the sinusoidal encoding, the head split, the backward pass,
// printing).
std::string notebookFunctions();

} // namespace attnbook
