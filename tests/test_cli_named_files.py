"""Files named on the command line: each is read through the one bounded
regular-file reader (engine/files.py) or written only where a regular file
is or none is. A FIFO or a device is refused in one line at once, sizes are
capped before anything is read, an .npz's arrays are checked from their
headers before anything is allocated, and a resumed table folder is checked
as `best --table` checks it."""

from __future__ import annotations

import io
import json
import os
import resource
import shutil
import struct
import subprocess
import sys
import tracemalloc
import zipfile

import numpy as np
import pytest

from crossridor.engine import files
from crossridor.engine._core import Q_NUM_FEATURES
from crossridor.engine.files import MAX_FILE_BYTES
from crossridor.engine.match import pgn, records
from crossridor.engine.stop import Interrupted
from crossridor.games.quoridor import training
from helpers import HANG, one_line_error, run_cli, selfplay_arrays

TABLE = ("quoridor", "--size", "3", "-o", "walls=1")      # a table of 3 levels, solved in a moment
MATCH = ("match", "quoridor", "--size", "5", "--engine", "random", "--engine", "random", "--games", "1",
         "--concurrency", "1", "--seed", "1")


# what a child reserves of address space without using it, kept small on a machine of many cores
SMALL_ADDRESS_SPACE = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MALLOC_ARENA_MAX="2")


def _bounded():
    # a reader of /dev/zero would fill memory: a MemoryError at 2 GB fails the test, not the machine
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def refused_at_once(*argv: str) -> str:
    """`crossridor ARGV...` in a child process (a hang fails the test, not
    the suite): exit 2 and one line on stderr, returned."""
    try:
        proc = subprocess.run([sys.executable, "-m", "crossridor", *argv], capture_output=True, text=True,
                              timeout=HANG, preexec_fn=_bounded, stdin=subprocess.DEVNULL, check=False,
                              env=SMALL_ADDRESS_SPACE)
    except subprocess.TimeoutExpired:
        pytest.fail(f"crossridor {' '.join(argv)} still ran after {HANG} s")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, (proc.returncode, proc.stderr[-2000:])
    assert proc.stderr.startswith("crossridor: error: "), proc.stderr
    return proc.stderr


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return str(path)


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("table") / "t"
    code, _, err = run_cli("solve", *TABLE, "--write-table", str(folder))
    assert code == 0, err
    return folder


@pytest.fixture
def table(solved, tmp_path):
    """A copy of a solved 3x3 table folder (levels 0, 1, 2) to spoil."""
    return shutil.copytree(solved, tmp_path / "table")


# --- a FIFO or a device named on the command line -----------------------------

READERS = {
    "show --pgn": lambda path, tmp: ("show", "quoridor", "--pgn", path),
    "match --openings": lambda path, tmp: (*MATCH, "--openings", path),
    "match --records --resume": lambda path, tmp: (*MATCH, "--records", path, "--resume"),
    "selfplay --records --resume": lambda path, tmp: ("selfplay", "quoridor", "--size", "5", "--games", "1",
                                                      "--records", path, "--resume", "--out", f"{tmp}/d.npz"),
    "train": lambda path, tmp: ("train", "quoridor", path, "--out", f"{tmp}/w.bin"),
    "analyse FILE": lambda path, tmp: ("analyse", "quoridor", path),
}


@pytest.mark.parametrize("device", [False, True], ids=["fifo", "dev-zero"])
@pytest.mark.parametrize("option", READERS)
def test_a_file_to_read_that_is_a_fifo_or_a_device_is_refused_at_once(option, device, fifo, tmp_path):
    path = "/dev/zero" if device else fifo
    err = refused_at_once(*READERS[option](path, tmp_path))
    assert f"{path!r} is not a regular file" in err, err


WRITERS = {
    "show --svg": lambda path, tmp: ("show", "quoridor", "--svg", path),
    "match --pgn": lambda path, tmp: (*MATCH, "--pgn", path),
    "match --records": lambda path, tmp: (*MATCH, "--records", path),
    "selfplay --out": lambda path, tmp: ("selfplay", "quoridor", "--size", "5", "--games", "1", "--out", path),
    "train --curve": lambda path, tmp: ("train", "quoridor", f"{tmp}/d.npz", "--out", f"{tmp}/w.bin",
                                        "--curve", path, "--epochs", "1"),
    "analyse --svg": lambda path, tmp: ("analyse", "quoridor", "--size", "5", "--moves", "c2", "--depth", "1",
                                        "--svg", path),
    "analyse --pgn-out": lambda path, tmp: ("analyse", "quoridor", "--size", "5", "--moves", "c2", "--depth",
                                            "1", "--pgn-out", path),
}


@pytest.mark.parametrize("option", WRITERS)
def test_a_file_to_write_that_is_a_fifo_is_refused_at_once(option, tmp_path):
    np.savez(tmp_path / "d.npz", **selfplay_arrays())
    path = tmp_path / "out.npz"
    os.mkfifo(path)
    err = refused_at_once(*WRITERS[option](str(path), tmp_path))
    assert f"{str(path)!r} is not a regular file" in err, err


@pytest.mark.parametrize("name", ["keys-02.npy", "values-02.npy", "values-00.npy"])
def test_a_fifo_in_a_table_folder_is_refused_at_once(table, name):
    os.remove(table / name)
    os.mkfifo(table / name)
    for argv in (("best", *TABLE, "--depth", "1", "--table", str(table)),
                 ("solve", *TABLE, "--table", str(table)),
                 ("solve", *TABLE, "--write-table", str(table))):
        err = refused_at_once(*argv)
        assert f"{table} is not a solved table: table file '{table}/{name}' is not a regular file" in err, err


def test_a_fifo_where_a_resumed_solve_writes_a_table_file_is_refused_at_once(table, tmp_path):
    # a stopped run: levels 0 and 1 still to solve, a FIFO where level 1 is written first
    os.remove(table / "values-00.npy")
    os.remove(table / "values-01.npy")
    os.mkfifo(table / "values-01.tmp")
    err = refused_at_once("solve", *TABLE, "--write-table", str(table))
    assert f"table file '{table}/values-01.tmp' is not a regular file" in err, err
    # a run stopped while counting: the description is written again
    counting = tmp_path / "counting"
    counting.mkdir()
    meta = json.loads((table / "table.json").read_text())
    (counting / "table.json").write_text(json.dumps(dict(meta, levels=None)))
    os.mkfifo(counting / "table.json.tmp")
    err = refused_at_once("solve", *TABLE, "--write-table", str(counting))
    assert f"table file '{counting}/table.json.tmp' is not a regular file" in err, err


def test_sigint_during_a_read_ends_it_and_a_read_after_it_still_reads(tmp_path, monkeypatch):
    path = tmp_path / "big"
    path.write_bytes(b"x" * (3 << 20))               # three chunks
    flags = iter([False, False, True])               # the CLI's SIGINT handler runs during the read
    monkeypatch.setattr(files, "interrupted", lambda: next(flags))
    with pytest.raises(Interrupted, match="reading test file .* stopped"):
        files.read_regular_file(str(path), "test file")
    monkeypatch.setattr(files, "interrupted", lambda: True)     # a match winding down reads on
    assert len(files.read_regular_file(str(path), "test file")) == 3 << 20


# --- sizes are capped before reading ------------------------------------------

def sparse(path, size: int) -> str:
    """A file of `size` bytes that takes no room (reading it would)."""
    with open(path, "wb") as f:
        f.truncate(size)
    return str(path)


def test_a_too_large_openings_file_is_refused_unread(tmp_path):
    path = sparse(tmp_path / "o.txt", MAX_FILE_BYTES + 1)
    err = one_line_error(*MATCH, "--openings", path)
    assert f"openings file {path!r} is too large ({MAX_FILE_BYTES + 1} bytes" in err, err


def test_a_too_large_pgn_or_records_file_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(pgn, "MAX_GAMES_FILE_BYTES", 1000)
    monkeypatch.setattr(records, "MAX_GAMES_FILE_BYTES", 1000)
    path = sparse(tmp_path / "g.pgn", 1001)
    assert f"pgn file {path!r} is too large" in one_line_error("show", "quoridor", "--pgn", path)
    path = sparse(tmp_path / "r.jsonl", 1001)
    assert f"records file {path!r} is too large" in one_line_error(*MATCH, "--records", path, "--resume")
    assert os.path.getsize(path) == 1001          # not cut as a torn line: never read


def test_a_torn_last_line_is_still_cut_on_resume(tmp_path):
    path = tmp_path / "r.jsonl"
    code, _, err = run_cli(*MATCH, "--records", str(path))
    assert code == 0, err
    whole = path.read_text()
    path.write_text(whole + whole[:25])            # a match killed while writing a second game
    code, _, err = run_cli(*MATCH, "--records", str(path), "--resume")
    assert code == 0, err
    assert path.read_text() == whole


def test_a_pgn_or_openings_file_that_is_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"c2 c4\n\xff\xfe\n")
    assert "is not UTF-8 text (byte 6)" in one_line_error(*MATCH, "--openings", str(path))
    assert "is not UTF-8 text (byte 6)" in one_line_error("show", "quoridor", "--pgn", str(path))


# --- selfplay data (.npz) ----------------------------------------------

def train_error(tmp_path, data: bytes | dict) -> str:
    path = tmp_path / "d.npz"
    if isinstance(data, dict):
        np.savez(path, **data)
    else:
        path.write_bytes(data)
    err = one_line_error("train", "quoridor", str(path), "--out", str(tmp_path / "w.bin"), "--epochs", "2")
    assert not (tmp_path / "w.bin").exists()
    return err


@pytest.mark.parametrize("arrays, message", [
    ({"score": np.zeros(40, np.complex64)}, "score holds complex64, not integers or floats"),
    ({"result": np.full(40, 1 + 0j)}, "result holds complex128, not integers or floats"),
    ({"game": np.array([None] * 40, dtype=object)}, "game holds object, not integers or floats"),
    ({"ply": np.array(["a"] * 40)}, "ply holds <U1, not integers or floats"),
    ({"features": np.zeros((40, Q_NUM_FEATURES), [("a", "<f4")])}, "features holds [('a', '<f4')]"),
    ({"score": np.zeros((40, 2), np.float32)}, "score has shape (40, 2): selfplay writes a vector"),
    ({"features": np.zeros(40, np.float32)}, "features has shape (40,): selfplay writes a matrix"),
    ({"size": np.int64(2 ** 40)}, "size 1099511627776 is not a Quoridor board (N or WxH"),
    ({"size": np.float32(5)}, "size 5.0 is not a Quoridor board (N or WxH"),
])
def test_train_refuses_arrays_of_the_wrong_kind_in_one_line(tmp_path, arrays, message):
    err = train_error(tmp_path, selfplay_arrays(**arrays))
    assert message in err and "d.npz" in err, err


def test_train_names_a_missing_array(tmp_path):
    data = selfplay_arrays()
    del data["ply"], data["game"]
    assert "not a selfplay data file (lacks game, ply)" in train_error(tmp_path, data)


def npz_with(name: str, header: dict, data: bytes, compress=zipfile.ZIP_DEFLATED) -> bytes:
    """A selfplay file whose array `name` has this npy header and data."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compress) as z:
        for key, array in selfplay_arrays().items():
            member = io.BytesIO()
            if key == name:
                np.lib.format.write_array_header_1_0(member, header)
                member.write(data)
            else:
                np.save(member, array)
            z.writestr(key + ".npy", member.getvalue())
    return out.getvalue()


def train_error_and_peak(tmp_path, data: bytes) -> tuple[str, int]:
    """train's error on `data`, and the most memory Python held meanwhile."""
    tracemalloc.start()
    try:
        err = train_error(tmp_path, data)
        return err, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_train_checks_an_array_header_before_allocating_it(tmp_path):
    # a header claiming 6.3 GB of features over no data: numpy allocated it all
    data = npz_with("features", {"descr": "<f4", "fortran_order": False, "shape": (75_000_000, Q_NUM_FEATURES)},
                    b"")
    err, peak = train_error_and_peak(tmp_path, data)
    assert peak < 100 * 2 ** 20, peak
    assert "features: its header says float32 (75000000, 21), its zip entry holds 0 bytes" in err, err


def test_train_caps_what_a_small_file_decompresses_to(tmp_path, monkeypatch):
    monkeypatch.setattr(training, "MAX_DATA_BYTES", 2 ** 20)
    n = 20_000            # 1.7 MB of zeros, a few kB compressed
    data = npz_with("features", {"descr": "<f4", "fortran_order": False, "shape": (n, Q_NUM_FEATURES)},
                    bytes(4 * n * Q_NUM_FEATURES))
    assert len(data) < 50_000
    err = train_error(tmp_path, data)
    assert f"{tmp_path / 'd.npz'}: its arrays take more than {2 ** 20} bytes" in err, err


def empty_members_zip(n: int, count_limit: int = 0xFFFF) -> bytes:
    """A zip of n empty members named 0 .. n-1, byte for byte as zipfile writes them
    (ZipInfo(name, (1980, 1, 1, 0, 0, 0))), made at once: zipfile takes seconds for 100,000.
    Past count_limit members (zipfile.ZIP_FILECOUNT_LIMIT) the zip64 end records hold the count."""
    local, central, offset = [], [], 0
    for i in range(n):
        name = str(i).encode()
        central.append(struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20 | 3 << 8, 20, 0, 0, 0, 33, 0, 0, 0,
                                   len(name), 0, 0, 0, 0, 0o600 << 16, offset) + name)
        local.append(struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, 33, 0, 0, 0, len(name), 0) + name)
        offset += len(local[-1])
    directory = b"".join(central)
    end = b""
    if n > count_limit:
        end = (struct.pack("<4sqHHLLqqqq", b"PK\x06\x06", 44, 45, 45, 0, 0, n, n, len(directory), offset)
               + struct.pack("<4sLqL", b"PK\x06\x07", 0, offset + len(directory), 1))
    end += struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, min(n, 0xFFFF), min(n, 0xFFFF), len(directory), offset, 0)
    return b"".join(local) + directory + end


@pytest.mark.parametrize("count_limit", [0xFFFF, 2])      # a plain end record, and the zip64 ones
def test_empty_members_zip_is_what_zipfile_writes(count_limit, monkeypatch):
    monkeypatch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", count_limit)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name in range(3):
            z.writestr(zipfile.ZipInfo(str(name), (1980, 1, 1, 0, 0, 0)), b"")
    assert empty_members_zip(3, count_limit) == out.getvalue()


def test_train_refuses_a_zip_listing_many_members_before_reading_its_directory(tmp_path):
    # 100,000 empty members: 8.6 MB of file, about 50 MB once zipfile has read its directory
    data = empty_members_zip(100_000)
    err, peak = train_error_and_peak(tmp_path, data)
    assert peak < 4 * 2 ** 20, peak
    assert "not a selfplay data file (a zip of more than 64 members" in err, err


def test_train_refuses_a_too_large_file_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(training, "MAX_DATA_BYTES", 1000)
    path = sparse(tmp_path / "d.npz", 1001)
    err = one_line_error("train", "quoridor", path, "--out", str(tmp_path / "w.bin"))
    assert f"selfplay data {path!r} is too large (1001 bytes, at most 1000)" in err, err


def test_train_still_reads_compressed_and_fortran_ordered_data(tmp_path):
    data = selfplay_arrays(features=np.asfortranarray(selfplay_arrays()["features"]))
    np.savez_compressed(tmp_path / "d.npz", **data, engine=np.array("alphabeta:depth=2"))
    code, out, err = run_cli("train", "quoridor", str(tmp_path / "d.npz"), "--out", str(tmp_path / "w.bin"),
                             "--epochs", "2", "--hidden", "0")
    assert code == 0, err
    assert "training and" in out


# --- a resumed table folder is checked as best --table checks it -------------

def spoil(table, level: int, how: str) -> None:
    keys = np.load(table / f"keys-{level:02d}.npy")
    meta = json.loads((table / "table.json").read_text())
    if how == "reordered":
        keys = keys[::-1].copy()
    elif how == "extra":
        keys = np.concatenate([keys, np.array([[1 << 40, 0, 0, 0]], np.uint64)])
        meta["levels"][str(level)] += 1
    elif how == "missing":
        keys = keys[1:].copy()
        meta["levels"][str(level)] -= 1
    np.save(table / f"keys-{level:02d}.npy", keys)
    (table / "table.json").write_text(json.dumps(meta))


@pytest.mark.parametrize("how, message", [
    ("reordered", "the layers of level 2 are not sorted"),
    ("extra", "layer 7 of level 2 is not a wall configuration of 3x3"),
])
def test_resuming_a_folder_whose_keys_are_wrong_is_the_one_line_of_best_table(table, how, message):
    spoil(table, 2, how)
    expected = f"crossridor: error: {table} is not a solved table: {message}\n"
    assert one_line_error("best", *TABLE, "--depth", "1", "--table", str(table)) == expected
    for name in ("values-00.npy", "values-01.npy", "values-02.npy"):     # stopped before any level was solved
        os.remove(table / name)
    assert one_line_error("solve", *TABLE, "--write-table", str(table)) == expected


def test_resuming_a_folder_missing_a_layer_is_one_line(table):
    spoil(table, 2, "missing")
    for name in ("values-00.npy", "values-01.npy", "values-02.npy"):
        os.remove(table / name)
    err = one_line_error("solve", *TABLE, "--write-table", str(table))
    assert f"{table} is not a solved table: level 1: a layer leads to a layer missing" in err, err


@pytest.mark.parametrize("levels", [{"0": 1, "2": 7}, {"1": 4, "2": 7, "3": 1}, {"0": 1, "1": 0, "2": 7},
                                    {"0": 1, "1": "4", "2": 7}, []])
def test_a_table_description_with_wrong_levels_is_one_line_for_best_and_resume(table, levels):
    meta = json.loads((table / "table.json").read_text())
    (table / "table.json").write_text(json.dumps(dict(meta, levels=levels)))
    for argv in (("best", *TABLE, "--depth", "1", "--table", str(table)),
                 ("solve", *TABLE, "--write-table", str(table))):
        err = one_line_error(*argv)
        assert f"{table} is not a solved table: a bad description (levels" in err, err


def test_a_level_file_shorter_than_its_header_is_one_line(table):
    whole = (table / "values-02.npy").read_bytes()
    (table / "values-02.npy").write_bytes(whole[:-5])
    err = one_line_error("best", *TABLE, "--depth", "1", "--table", str(table))
    assert "values-02.npy holds 384 bytes of data, not the uint8 (389,) of its header" in err, err


def test_a_table_still_plays_and_resumes(table):
    code, out, err = run_cli("best", *TABLE, "--table", str(table), "--json")
    assert code == 0 and json.loads(out)["source"] == "table", err
    os.remove(table / "values-00.npy")
    code, out, err = run_cli("solve", *TABLE, "--write-table", str(table))
    assert code == 0 and "player 2 wins in 8 plies" in out, err
