"""`--scheduler tls://HOST:PORT` with `--tls-ca-file`, `--tls-cert` and
`--tls-key` (docs/matches.md, "Who is trusted"): a throwaway CA and
certificates made with openssl as the docs make them, a scheduler and a
worker on 127.0.0.1 that require TLS, and on them a match, a self-play run
and a solve from the command line; a plain tcp:// client and a certificate
of another CA are shut out in one line, and so is every bad combination of
the options."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess

import pytest

pytest.importorskip("distributed", reason="Dask distributed is not installed: pip install '.[cluster]'")
if shutil.which("openssl") is None:
    pytest.skip("openssl (the command) makes the test certificates", allow_module_level=True)

import dask.config
from distributed.security import Security

from crossridor.engine.cli.match import scheduler_from_args
from crossridor.engine.cluster import ClusterExecutor, Scheduler
from crossridor.engine.errors import CrossridorError
from helpers import HANG, dask_cluster, one_line_error, run_cli

MATCH = ("match", "quoridor", "--size", "3", "--engine", "random", "--engine", "random", "--games", "2",
         "--seed", "5", "--json")


def openssl(folder, *args):
    subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True, timeout=HANG)


def make_ca(folder, name="ca"):
    """A CA as docs/matches.md makes it: NAME.key and the self-signed NAME.pem."""
    openssl(folder, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}",
            "-addext", "basicConstraints=critical,CA:TRUE", "-keyout", f"{name}.key", "-out", f"{name}.pem")


def make_certificate(folder, name, ca="ca"):
    """NAME.key and NAME.pem, signed by the CA `ca`."""
    openssl(folder, "req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={name}", "-keyout", f"{name}.key",
            "-out", f"{name}.csr")
    openssl(folder, "x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key",
            "-CAcreateserial", "-days", "2", "-out", f"{name}.pem")


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    """The cluster's CA, a certificate for the scheduler and the worker, one
    for the client; and a stranger: a certificate of another CA."""
    folder = tmp_path_factory.mktemp("tls")
    make_ca(folder)
    make_certificate(folder, "cluster")
    make_certificate(folder, "client")
    make_ca(folder, "other-ca")
    make_certificate(folder, "stranger", ca="other-ca")
    return folder


@pytest.fixture(scope="module")
def cluster(certs, tmp_path_factory):
    """A scheduler and one worker on 127.0.0.1 that take TLS only (Dask
    requires encryption once it is given certificates): the address."""
    files = ("--tls-ca-file", str(certs / "ca.pem"), "--tls-cert", str(certs / "cluster.pem"),
             "--tls-key", str(certs / "cluster.key"))
    security = Security(tls_ca_file=str(certs / "ca.pem"), tls_client_cert=str(certs / "client.pem"),
                        tls_client_key=str(certs / "client.key"), require_encryption=True)
    with dask_cluster(tmp_path_factory.mktemp("dask-tls"), workers=1, options=files,
                      security=security) as (address, _):
        assert address.startswith("tls://127.0.0.1:")
        yield address


def client_files(certs, name="client"):
    return ("--tls-ca-file", str(certs / "ca.pem"), "--tls-cert", str(certs / f"{name}.pem"),
            "--tls-key", str(certs / f"{name}.key"))


def test_a_match_on_a_tls_cluster_equals_a_local_one(cluster, certs):
    code, out, err = run_cli(*MATCH, "--scheduler", cluster, *client_files(certs))
    assert code == 0 and err == "", err
    there = json.loads(out)
    assert there["games"] == 2
    code, out, err = run_cli(*MATCH, "--concurrency", "1")
    assert code == 0, err
    assert json.loads(out) == there


def test_selfplay_and_solve_on_a_tls_cluster(cluster, certs, tmp_path):
    code, out, err = run_cli("selfplay", "quoridor", "--size", "3", "--games", "2", "--seed", "3",
                             "--out", str(tmp_path / "sp.npz"), "--scheduler", cluster, *client_files(certs))
    assert code == 0, err
    assert out.startswith("2 games") and (tmp_path / "sp.npz").is_file()
    code, out, err = run_cli("solve", "quoridor", "--size", "3", "--walls", "1", "--json",
                             "--write-table", str(tmp_path / "table"), "--scheduler", cluster,
                             *client_files(certs))
    assert code == 0, err
    code, local, err = run_cli("solve", "quoridor", "--size", "3", "--walls", "1", "--json", "--threads", "1")
    assert code == 0, err
    there, here = json.loads(out), json.loads(local)
    for key in ("winner", "plies", "moves", "nodes", "layers"):
        assert there[key] == here[key], key


def test_a_plain_tcp_client_is_shut_out(cluster):
    err = one_line_error(*MATCH, "--scheduler", cluster.replace("tls://", "tcp://"))
    assert "cannot reach the Dask scheduler" in err and "requires TLS" in err


def test_a_certificate_of_another_ca_is_shut_out(cluster, certs):
    files = ("--tls-ca-file", str(certs / "ca.pem"), "--tls-cert", str(certs / "stranger.pem"),
             "--tls-key", str(certs / "stranger.key"))
    err = one_line_error(*MATCH, "--scheduler", cluster, *files)
    assert "cannot reach the Dask scheduler" in err and "certificate" in err


def test_dask_configuration_may_give_the_files(cluster, certs):
    """tls:// without the options: Dask's own configuration (a config file,
    DASK_* variables) may hold the client's files, as Dask documents."""
    with dask.config.set({"distributed.comm.tls.ca-file": str(certs / "ca.pem"),
                          "distributed.comm.tls.client.cert": str(certs / "client.pem"),
                          "distributed.comm.tls.client.key": str(certs / "client.key")}):
        executor = ClusterExecutor(cluster)
        try:
            assert executor.capacity() == 1
        finally:
            executor.shutdown()


COMMANDS = {
    "match": MATCH,
    "selfplay": ("selfplay", "quoridor", "--size", "3", "--games", "2", "--out", "never-written.npz"),
    "solve": ("solve", "quoridor", "--size", "3", "--walls", "1", "--write-table", "never-written"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_bad_tls_options_are_one_line(command, certs, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = COMMANDS[command]
    tls = "tls://127.0.0.1:9"      # nothing listens: every case must stop before connecting
    cases = [
        ((tls,), "a tls:// scheduler (tls://127.0.0.1:9) needs --tls-ca-file"),
        ((tls, "--tls-ca-file", str(certs / "ca.pem")), "needs --tls-ca-file CA.pem and --tls-cert"),
        ((None, *client_files(certs)), "--tls-ca-file needs --scheduler tls://HOST:PORT"),
        ((None, "--tls-key", str(certs / "client.key")), "--tls-key needs --scheduler"),
        (("tcp://127.0.0.1:9", *client_files(certs)), "--tls-ca-file needs a tls://HOST:PORT scheduler"),
        ((tls, *client_files(certs, "missing")), "cannot read --tls-cert"),
    ]
    for (scheduler, *options), expected in cases:
        given = ("--scheduler", scheduler) if scheduler else ()
        err = one_line_error(*argv, *given, *options)
        assert expected in err, (scheduler, options, err)
    assert not (tmp_path / "never-written.npz").exists() and not (tmp_path / "never-written").exists()


def bad_file_cases(certs, folder):
    """(CA, certificate, key, what the one line says): files that are not
    what their option needs."""
    os.mkfifo(folder / "fifo.pem")          # would block a reader that opened it plainly
    (folder / "empty.pem").write_bytes(b"")
    openssl(folder, "genrsa", "-aes256", "-passout", "pass:secret", "-out", "locked.key", "2048")
    openssl(folder, "req", "-new", "-key", "locked.key", "-passin", "pass:secret", "-subj", "/CN=locked",
            "-out", "locked.csr")
    openssl(folder, "x509", "-req", "-in", "locked.csr", "-CA", str(certs / "ca.pem"), "-CAkey",
            str(certs / "ca.key"), "-CAcreateserial", "-days", "2", "-out", "locked.pem")
    ca, cert, key = str(certs / "ca.pem"), str(certs / "client.pem"), str(certs / "client.key")
    return [
        (str(folder / "fifo.pem"), cert, key, "--tls-ca-file '{}' is not a regular file"),
        (ca, "/dev/zero", key, "--tls-cert '/dev/zero' is not a regular file"),
        (ca, cert, str(folder), "is not a regular file"),
        (str(folder / "empty.pem"), cert, key, "not a PEM CA certificate"),
        (key, cert, key, "not a PEM CA certificate"),
        (ca, key, cert, "not a PEM certificate and its key"),
        (ca, cert, str(certs / "cluster.key"), "not a PEM certificate and its key"),   # another's key
        (ca, cert, None, "not a PEM certificate and its key"),                         # no key at all
        (ca, str(folder / "locked.pem"), str(folder / "locked.key"), "the key is encrypted"),
    ]


def test_certificate_files_are_checked_before_connecting(certs, tmp_path):
    for ca, cert, key, expected in bad_file_cases(certs, tmp_path):
        files = ("--tls-ca-file", ca, "--tls-cert", cert) + (("--tls-key", key) if key else ())
        err = one_line_error(*MATCH, "--scheduler", "tls://127.0.0.1:9", *files)
        assert expected.format(ca) in err, (ca, cert, key, err)


def test_the_key_may_be_in_the_certificate_file(certs, tmp_path):
    both = tmp_path / "both.pem"
    both.write_bytes((certs / "client.pem").read_bytes() + (certs / "client.key").read_bytes())
    scheduler = Scheduler("tls://127.0.0.1:9", str(certs / "ca.pem"), str(both))
    assert scheduler.security().tls_client_cert == str(both) and scheduler.security().require_encryption
    with pytest.raises(CrossridorError, match="needs --tls-ca-file"):
        ClusterExecutor("tls://127.0.0.1:9")          # the Python API checks as the command line does


def test_plain_tcp_beyond_this_machine_is_warned_about(capsys):
    def args(address):
        return argparse.Namespace(scheduler=address, tls_ca_file=None, tls_cert=None, tls_key=None)

    for address in ("tcp://127.0.0.1:8786", "127.0.0.2:8786", "tcp://[::1]:8786", "localhost:8786"):
        scheduler_from_args(args(address))
    assert capsys.readouterr().err == ""
    for address in ("tcp://10.1.2.3:8786", "tcp://cluster.example:8786"):
        scheduler_from_args(args(address))
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"crossridor: warning: {address} is plain TCP")
