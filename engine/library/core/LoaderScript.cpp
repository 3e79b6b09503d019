#include "library/core/LoaderScript.h"

#include <nlohmann/json.hpp>

namespace ps::library {

namespace {

// The script's text; @NAME@ and @MADE@ are replaced by Python string literals (JSON-escaped,
// ASCII only), so nothing stored in a run can end a literal and become code.
constexpr const char* kTemplate = R"PY("""Loads @STEM@.py with @STEM@.cache beside it, with plain torch.

Written by Precompile Studio (`library export --with-loader`). It needs only torch.

    python load_@STEM@.py     check this machine against what the pair was made with, then load it
                              (exit 0 it loads and every stamp matches; 1 it loads but a stamp
                              differs: its kernels will be compiled again, or it may not run; 2 it
                              does not load)

    from load_@STEM@ import load
    artifact = load()         # the loaded artifact; call it as you would call fn
"""
import json
import os
import platform
import sys

NAME = @NAME@
HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_CODE = os.path.join(HERE, NAME + ".py")
CACHE = os.path.join(HERE, NAME + ".cache")
# What the pair depends on, read where it was made.
MADE = json.loads(@MADE@)


def _series(version):
    return ".".join(str(version).split("+")[0].split(".")[:2]) if version else None


def here():
    """This machine's stamps (the same facts as MADE)."""
    import torch

    out = {"arch": platform.machine(), "python": platform.python_version(), "torch": torch.__version__,
           "triton": None, "cpu_isa": None, "gpus": []}
    try:
        from importlib import metadata

        out["triton"] = metadata.version("triton")
    except Exception:
        pass
    if MADE.get("cpu_isa"):
        try:
            from torch._inductor import cpu_vec_isa

            out["cpu_isa"] = str(cpu_vec_isa.pick_vec_isa()) or "none"
        except Exception:
            pass
    try:
        if torch.cuda.is_available():
            caps = set()
            for i in range(torch.cuda.device_count()):
                p = torch.cuda.get_device_properties(i)
                caps.add(f"{p.major}.{p.minor}")
            out["gpus"] = sorted(caps)
    except Exception:
        pass
    return out


def differences(now=None):
    """One phrase per stamp that differs from where the pair was made, most decisive first."""
    now = now or here()
    out = []

    def differs(key, name, effect, made=None, there=None):
        a = MADE.get(key) if made is None else made
        b = now.get(key) if there is None else there
        if a and b and a != b:
            out.append(f"{name} {a} where it was made, {b} here ({effect})")

    differs("arch", "machine", "it will not run")
    differs("torch_series", "torch", "precompile does not check which torch made an artifact: load it with the "
            "torch it was made with", _series(MADE.get("torch")), _series(now.get("torch")))
    if _series(MADE.get("torch")) == _series(now.get("torch")):
        differs("torch", "torch build", "its kernels will be compiled again")
    differs("python", "Python", "its kernels will be compiled again")
    differs("cpu_isa", "CPU instruction set", "its C++ kernels will be compiled again")
    made_gpus = set(MADE.get("gpus") or [])
    if made_gpus and not made_gpus <= set(now.get("gpus") or []):
        out.append(f"GPU architecture sm {', '.join(sorted(made_gpus))} where it was made, "
                   f"{', '.join(now.get('gpus') or []) or 'no GPU'} here (its GPU kernels will be compiled again)")
        differs("triton", "Triton", "its GPU kernels will be compiled again")
    elif made_gpus:
        differs("triton", "Triton", "its GPU kernels will be compiled again")
    return out


def load():
    """The pair loaded with this torch's own precompile API."""
    import torch

    api = torch.compiler.precompile
    if callable(api):  # torch 2.14: precompile(fn, *inputs) -> (python_code, cache); load(python_code, cache)
        with open(PYTHON_CODE, encoding="utf-8") as f:
            python_code = f.read()
        with open(CACHE, "rb") as f:
            cache = f.read()
        return api.load(python_code, cache)
    return api.load(PYTHON_CODE, CACHE)  # torch 2.15: load(artifact_path, cache_path)


def main():
    diffs = differences()
    try:
        load()
    except Exception as exc:
        print(f"load_{NAME}: does not load here: {type(exc).__name__}: {exc}"
              + (f" ({'; '.join(diffs)})" if diffs else ""), file=sys.stderr)
        return 2
    if diffs:
        print(f"load_{NAME}: loads, but " + "; ".join(diffs))
        return 1
    print(f"load_{NAME}: loads here, every stamp as it was made (torch {MADE.get('torch')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
)PY";

void replaceAll(std::string& text, const std::string& what, const std::string& with)
{
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
        text.replace(at, what.size(), with);
}

/// A Python string literal holding `text`: JSON's escapes are Python's, and ASCII only.
std::string pythonLiteral(const std::string& text)
{
    return nlohmann::json(text).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string LoaderScript::fileName(const std::string& name)
{
    return "load_" + name + ".py";
}

std::string LoaderScript::text(const std::string& name, const nlohmann::json& stamps, const std::string& torchVersion)
{
    nlohmann::json made = stamps.is_object() ? stamps : nlohmann::json::object();
    if (!made.contains("torch") && !torchVersion.empty())
        made["torch"] = torchVersion;
    std::string out = kTemplate;
    // The docstring names the files; a stem is file-name safe (ArtifactFiles::fileStem), and
    // anything but letters, digits, '-', '_' and '.' is left out of the docstring all the same.
    std::string stem;
    for (char c : name)
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
            || c == '.')
            stem += c;
    replaceAll(out, "@STEM@", stem);
    replaceAll(out, "@NAME@", pythonLiteral(name));
    replaceAll(out, "@MADE@", pythonLiteral(made.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace)));
    return out;
}

}  // namespace ps::library
