#include "core/live/reader_view_words.h"

#include "core/document/setting_words.h"

#include <algorithm>
#include <charconv>

namespace attnbook {
namespace {

constexpr const char* kViewPrefix = "view.";

std::string trimmed(const std::string& text) {
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos) {
        return "";
    }
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::optional<bool> onOff(const std::string& value) {
    if (value == "on" || value == "true") {
        return true;
    }
    if (value == "off" || value == "false") {
        return false;
    }
    return std::nullopt;
}

} // namespace

bool isReaderViewKey(const std::string& key) {
    return key.rfind(kViewPrefix, 0) == 0;
}

std::string readerViewControl(const std::string& key) {
    if (!isReaderViewKey(key)) {
        return "";
    }
    const std::string control = key.substr(std::string(kViewPrefix).size());
    for (const char* known : {"layers", "norm", "ffn", "mask"}) {
        if (control == known) {
            return control;
        }
    }
    return "";
}

std::optional<ReaderView> parseReaderView(const TransformerCellSpec& spec, const std::string& key,
                                          const std::string& value, std::string& why) {
    ReaderView view;
    view.control = readerViewControl(key);
    const std::string text = trimmed(value);
    const int layerCount = int(spec.config.layers.size());
    if (view.control.empty()) {
        why = "a transformer cell has the views view.layers, view.norm, view.ffn and view.mask, "
              "not '" +
              key + "'";
        return std::nullopt;
    }
    if (view.control == "layers") {
        int k = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), k);
        if (error != std::errc() || end != text.data() + text.size() || k < 1 || k > layerCount) {
            why = "view.layers takes a number of layers from 1 to " + std::to_string(layerCount) +
                  ", not '" + text + "'";
            return std::nullopt;
        }
        view.layers = k == layerCount ? -1 : k;
        return view;
    }
    if (view.control == "mask") {
        const std::optional<MaskKind> mask = maskNamed(text);
        if (!mask) {
            why = "view.mask takes none or causal, not '" + text + "'";
            return std::nullopt;
        }
        const auto& layers = spec.config.layers;
        if (std::any_of(layers.begin(), layers.end(), [&](const TransformerLayer& l) {
                return l.attention.mask != layers.front().attention.mask;
            })) {
            why = "the layers of this cell have different masks: change them in the cell";
            return std::nullopt;
        }
        view.mask = *mask;
        return view;
    }
    const std::optional<bool> on = onOff(text);
    if (!on) {
        why = key + " takes on or off, not '" + text + "'";
        return std::nullopt;
    }
    view.on = *on;
    return view;
}

void applyReaderView(TransformerCellSpec& spec, const ReaderView& view) {
    TransformerConfig& c = spec.config;
    if (!spec.beforeViews) {
        TransformerCellSpec::AuthoredSwitches before{c.run, {}};
        for (const TransformerLayer& layer : c.layers) {
            before.masks.push_back(layer.attention.mask);
        }
        spec.beforeViews = std::move(before);
    }
    if (view.control == "layers") {
        c.run.layers = view.layers;
    } else if (view.control == "norm") {
        c.run.norm = view.on;
    } else if (view.control == "ffn") {
        c.run.ffn = view.on;
    } else if (view.control == "mask") {
        for (TransformerLayer& layer : c.layers) {
            layer.attention.mask = view.mask;
        }
    }
}

std::string switchReaderView(TransformerCellSpec& spec, const std::string& key,
                             const std::string& value) {
    std::string why;
    if (const std::optional<ReaderView> view = parseReaderView(spec, key, value, why)) {
        applyReaderView(spec, *view);
    }
    return why;
}

std::vector<std::pair<std::string, std::string>>
readerViewKeys(const TransformerSettings& was, const TransformerSettings& now, int layerCount) {
    const auto word = [](bool on) { return std::string(on ? "on" : "off"); };
    std::vector<std::pair<std::string, std::string>> keys;
    if (now.run.layers != was.run.layers) {
        keys.emplace_back("view.layers",
                          std::to_string(now.run.layers < 0 ? layerCount : now.run.layers));
    }
    if (now.run.norm != was.run.norm) {
        keys.emplace_back("view.norm", word(now.run.norm));
    }
    if (now.run.ffn != was.run.ffn) {
        keys.emplace_back("view.ffn", word(now.run.ffn));
    }
    if (now.mask != was.mask && !now.maskMixed) {
        keys.emplace_back("view.mask", maskName(now.mask));
    }
    return keys;
}

} // namespace attnbook
