"""Specialization data: one compiled specialization of a @jit function as
a JSON string (what the jit hooks receive as
`compile["specialization_data"]`), from which `JITFunction.preload`
compiles it again, e.g. in another process before the first launch.

It names the function (module and qualified name), and holds the
signature, the constexpr values, the attributes, the options, the target
and the specialization key.  Constexpr values are numbers, strings, None,
dtypes, tuples and lists of these; a value of another kind is written down
by its repr and cannot be preloaded.  Decoding recomputes the key from the
decoded values, so data that does not describe the function it is preloaded
into, or that does not round-trip, is refused rather than compiled wrong.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, Tuple

from ..compile_time import constexpr
from ..dtypes import dtype, pointer_type


def full_name(fn) -> str:
    return f"{fn.module}.{fn.__qualname__}"


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, constexpr):
        return {"constexpr": _encode(value.value)}
    if isinstance(value, dtype) and not isinstance(value, pointer_type) and type(value) is dtype:
        return {"dtype": value.name}
    if isinstance(value, tuple) and type(value) is tuple:
        return {"tuple": [_encode(v) for v in value]}
    if isinstance(value, list):
        return {"list": [_encode(v) for v in value]}
    return {"unsupported": repr(value)}


def _decode(value: Any, where: str) -> Any:
    if not isinstance(value, dict):
        return value
    (kind, inner), = value.items()
    if kind == "constexpr":
        return constexpr(_decode(inner, where))
    if kind == "dtype":
        return dtype(inner)
    if kind == "tuple":
        return tuple(_decode(v, where) for v in inner)
    if kind == "list":
        return [_decode(v, where) for v in inner]
    raise RuntimeError(f"cannot preload {where}: its value {inner} was not serializable")


def serialize(fn, signature: Dict[str, str], constexprs: Dict[str, Any], attrs: Dict[str, Any],
              options: Dict[str, Any], target: str, key: tuple) -> str:
    return json.dumps({
        "name": full_name(fn), "signature": signature,
        "constexprs": {name: _encode(value) for name, value in constexprs.items()},
        "attrs": attrs, "options": options, "target": target, "key": repr(key)})


def deserialize(fn, text: str, make_key: Callable[..., tuple]) -> Tuple[Dict, Dict, Dict, Dict, str, tuple]:
    """(signature, constexprs, attrs, options, target, key) of specialization
    data for @jit function `fn`; RuntimeError if it is for another function
    or does not decode to the key it was made with."""
    try:
        data = json.loads(text)
        name = data["name"]
    except (TypeError, ValueError, KeyError) as e:
        raise RuntimeError(f"cannot preload {fn.__name__}: not specialization data ({e})") from None
    if name != full_name(fn):
        raise RuntimeError(f"Specialization data is for {name} but trying to preload for {full_name(fn)}")
    signature = dict(data["signature"])
    constexprs = {k: _decode(v, f"{fn.__name__}'s constexpr {k}") for k, v in data["constexprs"].items()}
    attrs = {k: v for k, v in data["attrs"].items()}
    options = dict(data["options"])
    target = data["target"]
    key = make_key(signature, constexprs, attrs, options, target)
    if repr(key) != data["key"]:
        raise RuntimeError(f"cannot preload {fn.__name__}: its specialization data does not match this "
                           f"function's parameters (key {data['key']}, decoded as {key!r})")
    return signature, constexprs, attrs, options, target, key
