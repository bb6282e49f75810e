#pragma once
// One undo history across the whole document. Each step remembers the
// document's bytes before and after, so undoing any sequence of edits
// returns exactly the bytes the author started from.

#include <QUndoStack>

#include <functional>
#include <string>

namespace attnbook {

class EditHistory {
  public:
    // `apply` puts a version of the document in place (reparse, recompute).
    explicit EditHistory(std::function<void(const std::string&)> apply);

    // Records an edit already made: `before` → `after`, named for the menu
    // ("Undo Set colour.heads"). An edit that changes nothing is not recorded.
    void record(const QString& name, std::string before, std::string after);

    QUndoStack& stack() { return stack_; }
    bool isDirty() const { return !stack_.isClean(); }
    void markSaved() { stack_.setClean(); }
    void clear() { stack_.clear(); }

  private:
    std::function<void(const std::string&)> apply_;
    QUndoStack stack_;
};

} // namespace attnbook
