#!/usr/bin/env python3
"""tools/native_deps.py - installs the native tools of tools/native-deps.lock into deps/.

    tools/native_deps.py            installs what is missing or out of date
    tools/native_deps.py --check    says what is missing (exit 1) or nothing (exit 0)

Each folder of deps/ (slang, cuda) is made from the wheels the lock file pins:
downloaded with pip (`pip download --no-deps --only-binary=:all:
--require-hashes`, for the platform and Python the lock names, so it never
installs anything into any Python), checked again against the lock's SHA-256,
unpacked into a temporary folder beside it with the wheels' file modes, and
moved into place in one rename. A folder whose deps/NAME/.pin equals the
lock's lines is up to date and is left alone.

deps/slang: lib/ (Slang's compiler library, its glslang and GLSL modules, and
libslang.so pointing at the compiler library, so that deps/slang is a
$SLANG_ROOT), include/ (slang.h and its companions), LICENSE, VERSION.
deps/cuda: CUDA's bin/ (nvcc, ptxas), nvvm/, include/ and lib/ (NVRTC, with
libnvrtc.so pointing at it), licenses/, VERSION; a $CUDA_PATH.

Exit status: 0 done, 1 missing (--check), 2 usage, 3 a download, check or
unpack failed (the message says which wheel and why; nothing is left half
made).
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCK = os.path.join(ROOT, 'tools', 'native-deps.lock')
DEPS = os.path.join(ROOT, 'deps')
# The wheels are chosen for this platform and Python whatever Python runs this script.
PIP_TARGET = ['--platform', 'manylinux_2_34_x86_64', '--platform', 'manylinux_2_17_x86_64',
              '--platform', 'manylinux2014_x86_64', '--platform', 'manylinux_2_12_x86_64',
              '--platform', 'manylinux2010_x86_64', '--python-version', '3.11',
              '--implementation', 'cp', '--abi', 'cp311', '--abi', 'none']


class Failure(Exception):
    pass


def read_lock():
    """{folder: [(dist, version, wheel, sha256, line)]} in the lock's order."""
    folders = {}
    with open(LOCK, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            fields = line.split()
            if len(fields) != 5 or not re.fullmatch(r'[0-9a-f]{64}', fields[4]):
                raise Failure(f'{LOCK}:{number}: expected FOLDER DIST VERSION WHEEL SHA256')
            folders.setdefault(fields[0], []).append((*fields[1:], line))
    return folders


def pin_text(wheels):
    return ''.join(w[4] + '\n' for w in wheels)


def up_to_date(folder, wheels):
    try:
        with open(os.path.join(DEPS, folder, '.pin'), encoding='utf-8') as f:
            return f.read() == pin_text(wheels)
    except OSError:
        return False


def download(wheels, into):
    """Downloads the wheels into `into` with pip, hashes required; returns their paths."""
    req = os.path.join(into, 'requirements.txt')
    with open(req, 'w', encoding='utf-8') as f:
        for dist, version, _wheel, sha, _line in wheels:
            f.write(f'{dist}=={version} --hash=sha256:{sha}\n')
    cmd = [sys.executable, '-m', 'pip', 'download', '--no-deps', '--only-binary=:all:',
           '--require-hashes', '--disable-pip-version-check', '--quiet', '-r', req,
           '-d', into] + PIP_TARGET
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise Failure('pip could not download the pinned wheels '
                      f'({", ".join(w[0] + "==" + w[1] for w in wheels)}):\n{r.stdout.strip()}')
    paths = []
    for dist, version, wheel, sha, _line in wheels:
        path = os.path.join(into, wheel)
        if not os.path.isfile(path):
            raise Failure(f'pip downloaded {dist}=={version}, but not as {wheel}')
        h = hashlib.sha256()
        with open(path, 'rb') as f:
            for block in iter(lambda: f.read(1 << 20), b''):
                h.update(block)
        if h.hexdigest() != sha:
            raise Failure(f'{wheel}: SHA-256 {h.hexdigest()}, the lock says {sha}')
        paths.append(path)
    return paths


def extract(z, info, dest):
    """Writes one member to dest with the wheel's mode (executables stay executable)."""
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with z.open(info) as src, open(dest, 'wb') as out:
        shutil.copyfileobj(src, out, 1 << 20)
    mode = (info.external_attr >> 16) & 0o777
    os.chmod(dest, 0o755 if mode & 0o111 else 0o644)


def licenses(z, dist, dest_dir):
    for info in z.infolist():
        if '.dist-info/licenses/' in info.filename and not info.is_dir():
            extract(z, info, os.path.join(dest_dir, f'{dist}-{os.path.basename(info.filename)}'))


def make_slang(paths, wheels, tmp):
    """Slang's compiler library and headers from the slangpy wheel."""
    libs = re.compile(r'slangpy/(libslang-compiler\.so[.0-9]*|libslang-glslang-[.0-9]+\.so|'
                      r'libslang-glsl-module-[.0-9]+\.so)$')
    compiler = None
    with zipfile.ZipFile(paths[0]) as z:
        for info in z.infolist():
            name = info.filename
            m = libs.match(name)
            if m:
                extract(z, info, os.path.join(tmp, 'lib', m.group(1)))
                if m.group(1).startswith('libslang-compiler'):
                    compiler = m.group(1)
            elif re.match(r'slangpy/include/slang[^/]*\.h$', name):
                extract(z, info, os.path.join(tmp, 'include', os.path.basename(name)))
            elif re.search(r'\.dist-info/licenses/LICENSE$', name):
                extract(z, info, os.path.join(tmp, 'LICENSE'))
    if not compiler or not os.path.isfile(os.path.join(tmp, 'include', 'slang.h')):
        raise Failure(f'{wheels[0][2]} holds no libslang-compiler library or no slang.h')
    version = re.search(r'(\d{4}\.\d+(?:\.\d+)?)$', compiler)
    if not version:
        raise Failure(f'cannot read a Slang version from {compiler}')
    os.symlink(compiler, os.path.join(tmp, 'lib', 'libslang.so'))
    with open(os.path.join(tmp, 'VERSION'), 'w', encoding='utf-8') as f:
        f.write(version.group(1) + '\n')


def make_cuda(paths, wheels, tmp):
    """CUDA's compilers: every wheel's nvidia/cu13/ tree merged into one CUDA_PATH."""
    for path, wheel in zip(paths, wheels):
        with zipfile.ZipFile(path) as z:
            for info in z.infolist():
                m = re.match(r'nvidia/cu\d+/(.+)$', info.filename)
                if m and not info.is_dir():
                    extract(z, info, os.path.join(tmp, m.group(1)))
            licenses(z, wheel[0], os.path.join(tmp, 'licenses'))
    for need in ('bin/nvcc', 'bin/ptxas', 'nvvm/bin/cicc', 'lib/libnvrtc.so.13'):
        if not os.path.isfile(os.path.join(tmp, need)):
            raise Failure(f'the CUDA wheels hold no {need}')
    os.symlink('libnvrtc.so.13', os.path.join(tmp, 'lib', 'libnvrtc.so'))
    with open(os.path.join(tmp, 'VERSION'), 'w', encoding='utf-8') as f:
        f.write(wheels[0][1] + '\n')


MAKERS = {'slang': make_slang, 'cuda': make_cuda}


def install(folder, wheels):
    if folder not in MAKERS:
        raise Failure(f'{LOCK}: unknown folder {folder!r} (known: {", ".join(MAKERS)})')
    os.makedirs(DEPS, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f'.{folder}-', dir=DEPS)
    try:
        downloads = os.path.join(work, 'wheels')
        tree = os.path.join(work, 'tree')
        os.makedirs(downloads)
        os.makedirs(tree)
        paths = download(wheels, downloads)
        MAKERS[folder](paths, wheels, tree)
        with open(os.path.join(tree, '.pin'), 'w', encoding='utf-8') as f:
            f.write(pin_text(wheels))
        final = os.path.join(DEPS, folder)
        old = None
        if os.path.lexists(final):
            old = os.path.join(work, 'old')
            os.rename(final, old)
        os.rename(tree, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv):
    check = argv[1:] == ['--check']
    if argv[1:] and not check:
        print('native_deps: usage: tools/native_deps.py [--check]', file=sys.stderr)
        return 2
    try:
        folders = read_lock()
        missing = [f for f, w in folders.items() if not up_to_date(f, w)]
        if check:
            for f in missing:
                print(f'setup: missing deps/{f} (tools/native-deps.lock: '
                      f'{", ".join(w[0] + " " + w[1] for w in folders[f])})')
            return 1 if missing else 0
        for f in missing:
            print(f'setup: installing deps/{f} from PyPI: '
                  f'{", ".join(w[0] + " " + w[1] for w in folders[f])}', flush=True)
            install(f, folders[f])
    except Failure as e:
        print(f'setup: error: {e}', file=sys.stderr)
        return 3
    except OSError as e:
        print(f'setup: error: {e}', file=sys.stderr)
        return 3
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
