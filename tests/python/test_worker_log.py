"""The worker's log keeps torch's words except the one that is noise on every CPU machine."""
import logging

from precompile_studio import worker  # noqa: F401 - installs the filter


def test_no_cuda_runtime_note_is_dropped_and_the_loggers_other_words_kept(caplog):
    log = logging.getLogger("torch.utils.cpp_extension")
    with caplog.at_level(logging.WARNING, logger="torch.utils.cpp_extension"):
        log.warning("No CUDA runtime is found, using CUDA_HOME='/usr/local'")
        log.warning("Error checking compiler version for c++")
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["Error checking compiler version for c++"]
