"""The method sets of the standard library's interfaces that repository interfaces embed.

A repository interface that embeds one of these (``type Flag interface { fmt.Stringer; ... }``)
needs its methods too; without them its method set is unknown and no type could be found to
implement it. Only interfaces whose method sets have been fixed since Go 1 are listed, by the
name the resolver gives them (the import path, a dot, the type name); any other embedded
interface from outside the repository still leaves the method set unknown. Each method is its
(parameter count, result count), as ``semantics.method_set`` keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping

STD_INTERFACES: Mapping[str, Mapping[str, tuple[int, int]]] = {
    "error": {"Error": (0, 1)},
    "fmt.Stringer": {"String": (0, 1)},
    "fmt.GoStringer": {"GoString": (0, 1)},
    "fmt.Formatter": {"Format": (2, 0)},
    "io.Reader": {"Read": (1, 2)},
    "io.Writer": {"Write": (1, 2)},
    "io.Closer": {"Close": (0, 1)},
    "io.Seeker": {"Seek": (2, 2)},
    "io.ReadWriter": {"Read": (1, 2), "Write": (1, 2)},
    "io.ReadCloser": {"Read": (1, 2), "Close": (0, 1)},
    "io.WriteCloser": {"Write": (1, 2), "Close": (0, 1)},
    "io.ReadWriteCloser": {"Read": (1, 2), "Write": (1, 2), "Close": (0, 1)},
    "io.ReaderAt": {"ReadAt": (2, 2)},
    "io.WriterAt": {"WriteAt": (2, 2)},
    "io.ReaderFrom": {"ReadFrom": (1, 2)},
    "io.WriterTo": {"WriteTo": (1, 2)},
    "io.ByteReader": {"ReadByte": (0, 2)},
    "io.ByteWriter": {"WriteByte": (1, 1)},
    "io.RuneReader": {"ReadRune": (0, 3)},
    "io.StringWriter": {"WriteString": (1, 2)},
    "sort.Interface": {"Len": (0, 1), "Less": (2, 1), "Swap": (2, 0)},
    "flag.Value": {"String": (0, 1), "Set": (1, 1)},
    "flag.Getter": {"String": (0, 1), "Set": (1, 1), "Get": (0, 1)},
    "encoding.TextMarshaler": {"MarshalText": (0, 2)},
    "encoding.TextUnmarshaler": {"UnmarshalText": (1, 1)},
    "encoding.BinaryMarshaler": {"MarshalBinary": (0, 2)},
    "encoding.BinaryUnmarshaler": {"UnmarshalBinary": (1, 1)},
    "encoding/json.Marshaler": {"MarshalJSON": (0, 2)},
    "encoding/json.Unmarshaler": {"UnmarshalJSON": (1, 1)},
    "net/http.Handler": {"ServeHTTP": (2, 0)},
    "context.Context": {"Deadline": (0, 2), "Done": (0, 1), "Err": (0, 1), "Value": (1, 1)},
    "sync.Locker": {"Lock": (0, 0), "Unlock": (0, 0)},
}
