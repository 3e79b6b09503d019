#pragma once

#include <string>
#include <string_view>

namespace ps::model {

/// Text of any origin (a run's names, a host's words, a script's output) with what a terminal
/// or a text view would act on or hide made visible as escapes: C0 controls, DEL and the C1
/// controls U+0080..U+009F become \xNN or \uNNNN (\x1b for ESC, \x07 for BEL, \u009b for the C1
/// CSI), each byte that is not part of valid UTF-8 becomes \xNN (a stray 0x9b is CSI to an
/// 8-bit terminal), and the bidirectional controls that reorder the text around them
/// (U+202A..U+202E, U+2066..U+2069, U+200E, U+200F, U+061C: Trojan Source) become \uNNNN.
/// Printable UTF-8 (accents, CJK, emoji) is kept as it is.
class VisibleText {
public:
    /// What layout characters are kept as they are.
    enum class Keep {
        Nothing,   ///< one line: every control escaped
        Newlines,  ///< \n kept, for texts printed on several lines
        Layout,    ///< \n, \r and \t kept: a program's output (progress bars, tables)
    };
    static std::string of(std::string_view text, Keep keep = Keep::Nothing);
};

}  // namespace ps::model
