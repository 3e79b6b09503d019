"""Read a precompile cache: the envelope and the entries of its artifact bundle.

The cache is ``torch.save`` of a plain dict (format, version, backend, code_hash,
artifact) and is read here with ``torch.load(weights_only=True)``, like load() reads it.
The inductor artifact is the ``torch.compiler.save_cache_artifacts`` bundle; its entries
are decoded with torch's own deserialiser (``CacheArtifactManager.deserialize``, what
``torch.compiler.load_cache_artifacts`` uses) without populating any cache. The eager
artifact is None: no entries.
"""
from __future__ import annotations

import hashlib
import io


def inspect_cache(cache: bytes | None, python_code: str | None = None) -> dict | None:
    if cache is None:
        return None
    import torch

    out: dict = {
        "format": None,
        "version": None,
        "backend": None,
        "code_hash": None,
        "code_hash_ok": None,
        "bytes": len(cache),
        "keys": [],
        "artifact_bytes": None,
        "entries": [],
        "error": None,
    }
    try:
        blob = torch.load(io.BytesIO(cache), weights_only=True)
    except Exception as e:  # noqa: BLE001 - the bytes (maybe the script's own pair) are not an envelope: said
        out["error"] = f"the envelope cannot be read with torch.load(weights_only=True): {type(e).__name__}: {e}"
        return out
    if not isinstance(blob, dict):
        out["error"] = f"the envelope is a {type(blob).__name__}, not a dict"
        return out
    out["keys"] = sorted(str(k) for k in blob)
    out["format"] = blob.get("format")
    out["version"] = blob.get("version")
    out["backend"] = blob.get("backend")
    out["code_hash"] = blob.get("code_hash")
    if python_code is not None and out["code_hash"] is not None:
        out["code_hash_ok"] = hashlib.sha256(python_code.encode()).hexdigest() == out["code_hash"]
    try:
        from precompile_studio.api.choose import current

        internals = current().internals()
        _CACHE_FORMAT, _CACHE_VERSION = internals._CACHE_FORMAT, internals._CACHE_VERSION

        out["format_ok"] = out["format"] == _CACHE_FORMAT and out["version"] == _CACHE_VERSION
    except ImportError:  # pragma: no cover
        pass
    artifact = blob.get("artifact")
    if artifact is None:
        return out
    if not isinstance(artifact, (bytes, bytearray)):
        out["error"] = f"the artifact is a {type(artifact).__name__}, not bytes"
        return out
    out["artifact_bytes"] = len(artifact)
    out["artifact_sha256"] = hashlib.sha256(artifact).hexdigest()
    out["entries"], err = decode_bundle(bytes(artifact))
    if err:
        out["error"] = err
    return out


def decode_bundle(artifact: bytes) -> tuple[list[dict], str | None]:
    """[{kind, key, bytes}] of a save_cache_artifacts bundle, and an error text or None."""
    import logging

    from torch.compiler._cache import CacheArtifactManager

    # deserialize() logs a warning and returns None on a bad bundle; keep that out of
    # the user's log, and report it in the result instead.
    log = logging.getLogger("torch.compiler._cache")
    old = log.level
    log.setLevel(logging.ERROR)
    try:
        decoded = CacheArtifactManager.deserialize(artifact)
    finally:
        log.setLevel(old)
    if decoded is None:
        return [], "the artifact bundle cannot be decoded by CacheArtifactManager.deserialize"
    entries = []
    for kind, arts in decoded.items():
        for a in arts:
            content = getattr(a, "content", b"") or b""
            entries.append({"kind": str(kind), "key": str(a.key), "bytes": len(content)})
    return entries, None
