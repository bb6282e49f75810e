#include "app/window/edit_history.h"

namespace attnbook {
namespace {

class DocumentEdit : public QUndoCommand {
  public:
    DocumentEdit(const QString& name, std::string before, std::string after,
                 const std::function<void(const std::string&)>& apply)
        : QUndoCommand(name), before_(std::move(before)), after_(std::move(after)), apply_(apply) {}

    // The edit is already in place when it is recorded: the first redo,
    // which QUndoStack::push calls, has nothing to do.
    void redo() override {
        if (pushed_) {
            apply_(after_);
        }
        pushed_ = true;
    }
    void undo() override { apply_(before_); }

  private:
    std::string before_;
    std::string after_;
    std::function<void(const std::string&)> apply_;
    bool pushed_ = false;
};

} // namespace

EditHistory::EditHistory(std::function<void(const std::string&)> apply)
    : apply_(std::move(apply)) {}

void EditHistory::record(const QString& name, std::string before, std::string after) {
    if (before == after) {
        return;
    }
    stack_.push(new DocumentEdit(name, std::move(before), std::move(after), apply_));
}

} // namespace attnbook
