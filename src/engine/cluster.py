"""Sending work to a Dask cluster: `crossridor match`, `selfplay` and
`solve` with `--scheduler tcp://HOST:PORT` (or `tls://HOST:PORT` with
`--tls-ca-file`, `--tls-cert` and `--tls-key`; the optional extra `cluster`).
Below the match runner and the games, so both can use it.

The work goes through Dask's own executor (`Client.get_executor`), a
`concurrent.futures.Executor` like the local process pool, so the match
runner is the same: games seeded from (match seed, index), counted in index
order, records written as they finish; SPRT, resume and progress work as
locally, and without time limits the records equal a local run's. When a
worker dies, the scheduler gives its tasks to another worker (Dask reruns a
task whose worker was lost, up to `distributed.scheduler.allowed-failures`
times); the runner sees one result per game, so each is counted once.

The workers need `crossridor` installed (the same version), and so does the
machine that sends the work.

Trust: whoever reaches a scheduler runs code on its workers (a task is a
pickled function), and the client unpickles what the workers send back, so
the scheduler, the workers and whoever can connect to them are trusted with
this machine too. Without TLS that is anyone who reaches the scheduler's
port; with TLS (mutual, as Dask does it: both sides show a certificate
signed by the cluster's CA) it is whoever holds such a certificate.
"""

from __future__ import annotations

import concurrent.futures
import ipaddress
import ssl
from dataclasses import dataclass

from crossridor.engine.errors import CrossridorError
from crossridor.engine.extras import install_hint
from crossridor.engine.files import check_regular_file

CONNECT_TIMEOUT = "10s"
TLS_FILE_BYTES = 2 ** 20       # a certificate, a key or a CA bundle: kilobytes (a system's whole CA bundle ~ 200 KB)
TLS_OPTIONS = ("--tls-ca-file", "--tls-cert", "--tls-key")


def _scheme(address: str) -> str:
    """The scheme of a Dask address (Dask's default: tcp)."""
    scheme, sep, _ = address.partition("://")
    return scheme.lower() if sep else "tcp"


def _configured_tls() -> bool:
    """Whether Dask's own configuration (a dask config file, DASK_* variables)
    gives a client the CA and a certificate: Dask then uses them by itself."""
    try:
        import dask.config
    except ImportError:
        return False
    return bool(dask.config.get("distributed.comm.tls.ca-file", None)
                and dask.config.get("distributed.comm.tls.client.cert", None))


class _EncryptedKey(Exception):
    pass


def _no_password():
    """OpenSSL asks for the passphrase of an encrypted key on the terminal
    unless given a callback: this one says the key is encrypted instead."""
    raise _EncryptedKey


@dataclass(frozen=True)
class Scheduler:
    """A Dask scheduler to send work to: its address and, for a `tls://`
    address, this client's TLS files: the CA certificate that signed the
    cluster's certificates, this client's certificate, and its key (None:
    the key is in the certificate file). Checked when made: a bad
    combination or a file that is not a readable certificate is one
    CrossridorError."""

    address: str
    tls_ca_file: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None

    def __post_init__(self):
        if not isinstance(self.address, str) or not self.address.strip():
            raise CrossridorError(f"--scheduler needs an address tcp://HOST:PORT or tls://HOST:PORT, "
                                  f"got {self.address!r}")
        files = dict(zip(TLS_OPTIONS, (self.tls_ca_file, self.tls_cert, self.tls_key)))
        given = [option for option, path in files.items() if path is not None]
        if _scheme(self.address) != "tls":
            if given:
                raise CrossridorError(f"{given[0]} needs a tls://HOST:PORT scheduler, not {self.address!r}")
            return
        if not given and _configured_tls():
            return
        if self.tls_ca_file is None or self.tls_cert is None:
            # without them Dask fails with a TypeError, and a Client that failed so
            # leaves this process unable to start the next one
            raise CrossridorError(f"a tls:// scheduler ({self.address}) needs --tls-ca-file CA.pem and "
                                  f"--tls-cert CERT.pem (and --tls-key KEY.pem unless the key is in CERT.pem)")
        for option, path in files.items():
            if path is not None:
                check_regular_file(path, option, TLS_FILE_BYTES)
        self._check_certificates()

    def _check_certificates(self) -> None:
        """Load the files as Dask will, so that a file that is not a PEM
        certificate or key is said now, naming its option."""
        try:
            context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=self.tls_ca_file)
        except (ssl.SSLError, OSError, ValueError) as exc:
            raise CrossridorError(f"--tls-ca-file {self.tls_ca_file!r}: not a PEM CA certificate ({exc})") from None
        key = f" and --tls-key {self.tls_key!r}" if self.tls_key else ""
        assert self.tls_cert is not None        # a tls:// address has one: checked above
        try:
            context.load_cert_chain(self.tls_cert, self.tls_key, password=_no_password)
        except _EncryptedKey:
            raise CrossridorError(f"--tls-cert {self.tls_cert!r}{key}: the key is encrypted; Dask reads it "
                                  f"without a passphrase (keep an unencrypted key readable by you only)") from None
        except (ssl.SSLError, OSError, ValueError) as exc:
            raise CrossridorError(f"--tls-cert {self.tls_cert!r}{key}: not a PEM certificate and its key "
                                  f"({exc})") from None

    @property
    def uses_tls(self) -> bool:
        return _scheme(self.address) == "tls"

    @property
    def open_to_network(self) -> bool:
        """Plain TCP to a host other than this machine: unencrypted, and the
        scheduler lets in anyone who reaches it."""
        if self.uses_tls or _scheme(self.address) != "tcp":
            return False
        host = self.address.split("://", 1)[-1].rsplit(":", 1)[0].strip("[]")
        if host.lower() == "localhost":
            return False
        try:
            return not ipaddress.ip_address(host).is_loopback
        except ValueError:          # a host name: it may resolve anywhere
            return True

    def security(self):
        """The distributed.security.Security for a Client, or None (Dask's
        configuration then decides, as for a plain tcp:// scheduler)."""
        if self.tls_ca_file is None:
            return None
        from distributed.security import Security
        return Security(tls_ca_file=self.tls_ca_file, tls_client_cert=self.tls_cert,
                        tls_client_key=self.tls_key, require_encryption=True)


class ClusterExecutor(concurrent.futures.Executor):
    """Tasks (a match's games, a solve's chunks of layers) run on the workers
    of a running Dask scheduler (a Scheduler, or the address of one without
    TLS files)."""

    def __init__(self, scheduler: Scheduler | str, timeout: str = CONNECT_TIMEOUT):
        if not isinstance(scheduler, Scheduler):
            scheduler = Scheduler(scheduler)
        try:
            import distributed
        except ImportError:
            raise CrossridorError(f"--scheduler needs Dask distributed, {install_hint('cluster')}") from None
        address = scheduler.address
        try:
            self.client = distributed.Client(address, timeout=timeout, set_as_default=False,
                                             security=scheduler.security())
        # RuntimeError: Dask refusing a tcp:// address when its configuration requires encryption
        except (OSError, TimeoutError, ValueError, RuntimeError) as exc:
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            hint = ""
            if isinstance(exc, distributed.comm.CommClosedError):     # connected, then shut out
                hint = (" (the scheduler refused this certificate: is it signed by the cluster's CA?)"
                        if scheduler.uses_tls else
                        " (a scheduler that requires TLS closes tcp:// connections: give its tls:// address "
                        "and --tls-ca-file, --tls-cert, --tls-key)")
            raise CrossridorError(f"cannot reach the Dask scheduler at {address}: {reason}{hint}") from None
        # pure=False: every game is its own task, even with equal arguments
        self._executor = self.client.get_executor(pure=False)

    def capacity(self) -> int:
        """Games the cluster plays at once: its worker threads (at least 1)."""
        return max(1, sum(self.client.nthreads().values()))

    def submit(self, fn, /, *args, **kwargs):
        return self._executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        try:
            self._executor.shutdown(wait=wait and not cancel_futures)
        finally:
            self.client.close()
