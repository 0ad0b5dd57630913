<#
.SYNOPSIS
Puts a Windows x64 build of this library where the bindings of tls-client
load theirs (packaging/install.sh's counterpart for Windows).

.DESCRIPTION
  node-tls-client 2.1.0  <os.tmpdir()>\tls-client-64.dll  (x64 Node)
      dist/utils/native.js: LibraryHandler.path is os.tmpdir() joined with a
      name picked from process.platform and process.arch (win32-x64:
      tls-client-64.dll, win32-ia32: tls-client-32.dll). The file is
      downloaded (upstream's latest GitHub release) only when that path does
      not exist; no version file, no checksum. os.tmpdir() on Windows is
      %TEMP%, else %TMP%, else %SystemRoot%\temp, of the process that loads it.
  Python's tls_client    <site-packages>\tls_client\dependencies\tls-client-64.dll (64-bit Python)
      tls_client/cffi.py: ctypes.cdll.LoadLibrary at import.

A file that was there and is not ours is kept as <name>.upstream (once);
-Uninstall removes ours and puts it back. Without a saved file,
node-tls-client downloads upstream's on its next initTLS(), and tls_client
needs `pip install --force-reinstall tls_client`.

A library that is not a 64-bit x64 DLL, or not a build of this project, is
refused. Windows locks a loaded DLL: close the Node and Python programs that
use the old file first.

.PARAMETER Library
The DLL. Default: build\libtls-client.dll or build\tls-client.dll of this
repository, else dist\tls-client-windows-64-<version>.dll (packaging/release.sh).

.PARAMETER Node
A project folder whose node_modules has node-tls-client, the package folder
itself, or the cache folder directly. May be given more than once.

.PARAMETER Python
The tls_client that `python` (or $env:PYTHON) finds.

.PARAMETER PythonDir
The tls_client package folder, or a site-packages folder holding it.

.PARAMETER Uninstall
Remove ours and restore <name>.upstream.

.EXAMPLE
powershell -ExecutionPolicy Bypass -File packaging\install.ps1
.EXAMPLE
powershell -ExecutionPolicy Bypass -File packaging\install.ps1 dist\tls-client-windows-64-0.1.0.dll -Node C:\src\myapp
.EXAMPLE
powershell -ExecutionPolicy Bypass -File packaging\install.ps1 -Uninstall
#>
[CmdletBinding()]
param(
  [Parameter(Position = 0)] [string] $Library,
  [string[]] $Node,
  [switch] $Python,
  [string] $PythonDir,
  [switch] $Uninstall
)
Set-StrictMode -Version 2.0
$ErrorActionPreference = 'Stop'

$Root = Split-Path -Parent $PSScriptRoot
$Marker = 'tlsClientCpp'    # in destroySession's answer; upstream's library has no such text
$NodeName = 'tls-client-64.dll'
$PyName = 'tls-client-64.dll'
$PythonExe = if ($env:PYTHON) { $env:PYTHON } else { 'python' }

function Say([string] $Message) { Write-Host "install.ps1: $Message" }
function Die([string] $Message) {
  [Console]::Error.WriteLine("install.ps1: $Message")
  exit 1
}

# A native command's standard output, trimmed; '' when it fails or is missing.
function Invoke-Quiet([string] $Exe, [string[]] $Arguments) {
  if (-not (Get-Command $Exe -ErrorAction SilentlyContinue)) { return '' }
  $old = $ErrorActionPreference
  $ErrorActionPreference = 'Continue'
  try {
    $out = & $Exe @Arguments 2>$null
    if ($LASTEXITCODE -ne 0 -or $null -eq $out) { return '' }
    return ($out | Out-String).Trim()
  } catch {
    return ''
  } finally {
    $ErrorActionPreference = $old
  }
}

$arch = $env:PROCESSOR_ARCHITEW6432
if (-not $arch) { $arch = $env:PROCESSOR_ARCHITECTURE }
if ($arch -ne 'AMD64') { Die "only Windows x64 (AMD64) is handled; this machine is $arch" }

# .NET resolves relative paths against its own current folder, not
# PowerShell's: every path handed to [System.IO.File] is made absolute first.
function Test-Ours([string] $Path) {
  $Path = (Resolve-Path -LiteralPath $Path).ProviderPath
  $bytes = [System.IO.File]::ReadAllBytes($Path)
  return [System.Text.Encoding]::ASCII.GetString($bytes).IndexOf($Marker, [System.StringComparison]::Ordinal) -ge 0
}

# '' when Path is a DLL of this project for x64, else why not.
function Test-Library([string] $Path) {
  if (-not (Test-Path -LiteralPath $Path -PathType Leaf)) { return 'not a file' }
  $Path = (Resolve-Path -LiteralPath $Path).ProviderPath
  $buf = New-Object byte[] 4096
  $fs = [System.IO.File]::OpenRead($Path)
  try { $n = $fs.Read($buf, 0, $buf.Length) } finally { $fs.Dispose() }
  if ($n -ge 4 -and $buf[0] -eq 0x7F -and $buf[1] -eq 0x45 -and $buf[2] -eq 0x4C -and $buf[3] -eq 0x46) {
    return 'an ELF (Linux) file, not a Windows DLL'
  }
  if ($n -lt 64 -or $buf[0] -ne 0x4D -or $buf[1] -ne 0x5A) { return 'not a Windows (PE) file' }
  $pe = [BitConverter]::ToInt32($buf, 0x3C)
  if ($pe -lt 0 -or ($pe + 24) -gt $n -or $buf[$pe] -ne 0x50 -or $buf[$pe + 1] -ne 0x45 -or
      $buf[$pe + 2] -ne 0 -or $buf[$pe + 3] -ne 0) {
    return 'not a Windows (PE) file'
  }
  $machine = [BitConverter]::ToUInt16($buf, $pe + 4)
  $characteristics = [BitConverter]::ToUInt16($buf, $pe + 22)
  if ($machine -ne 0x8664) {
    if ($machine -eq 0x14C) { $what = 'x86 (32-bit)' }
    elseif ($machine -eq 0xAA64) { $what = 'ARM64' }
    else { $what = 'PE machine 0x{0:X4}' -f $machine }
    return "built for $what, this machine is x64"
  }
  if (($characteristics -band 0x2000) -eq 0) { return 'not a DLL' }
  if (-not (Test-Ours $Path)) { return "not a build of tls-client-cpp (no $Marker in it)" }
  return ''
}

function Get-Hash([string] $Path) { (Get-FileHash -LiteralPath $Path -Algorithm SHA256).Hash }

# --- the library
$LibPath = $null
$LibHash = $null
if (-not $Uninstall) {
  if ($Library) {
    $why = Test-Library $Library
    if ($why) { Die "refusing ${Library}: $why" }
    $LibPath = (Resolve-Path -LiteralPath $Library).ProviderPath
  } else {
    $candidates = @((Join-Path $Root 'build\libtls-client.dll'), (Join-Path $Root 'build\tls-client.dll'))
    $distDir = Join-Path $Root 'dist'
    if (Test-Path -LiteralPath $distDir) {
      $candidates += @(Get-ChildItem -LiteralPath $distDir -Filter 'tls-client-windows-64-*.dll' | ForEach-Object { $_.FullName })
    }
    $first = $null
    foreach ($c in $candidates) {
      if (-not (Test-Path -LiteralPath $c -PathType Leaf)) { continue }
      $why = Test-Library $c
      if (-not $why) { $LibPath = $c; break }
      if (-not $first) { $first = "${c}: $why" }
    }
    if (-not $LibPath) {
      if ($first) { Die "refusing $first" }
      Die 'no library: build build\libtls-client.dll or run packaging/release.sh, or name the file'
    }
  }
  $LibHash = Get-Hash $LibPath
  Say "library $LibPath (x64, $((Get-Item -LiteralPath $LibPath).Length) bytes)"
}

# --- the targets
$Targets = New-Object System.Collections.ArrayList

function Get-NodeTmpdir {
  $t = Invoke-Quiet 'node' @('-e', 'process.stdout.write(require(process.argv[1]).tmpdir())', 'os')
  if ($t) { return $t }
  # node's os.tmpdir() on Windows
  $t = $env:TEMP
  if (-not $t) { $t = $env:TMP }
  if (-not $t) {
    $sysroot = $env:SystemRoot
    if (-not $sysroot) { $sysroot = $env:windir }
    $t = "$sysroot\temp"
  }
  if ($t.Length -gt 1 -and $t.EndsWith('\') -and -not $t.EndsWith(':\')) { $t = $t.Substring(0, $t.Length - 1) }
  return $t
}

function Add-NodePackage([string] $Package) {
  $version = '?'
  if ((Get-Content -LiteralPath (Join-Path $Package 'package.json') -Raw) -match '"version"\s*:\s*"([^"]*)"') { $version = $Matches[1] }
  if ($version -ne '2.1.0') { Say "warning: node-tls-client $version in $Package (this script follows 2.1.0)" }
  $native = Join-Path $Package 'dist\utils\native.js'
  $p = ''
  if (Test-Path -LiteralPath $native) {
    $p = Invoke-Quiet 'node' @('-e', 'const h=require(process.argv[1]).LibraryHandler;if(h&&h.path)process.stdout.write(h.path)', $native)
  }
  if ($p) {
    $leaf = Split-Path -Leaf $p
    if ($leaf -ne $NodeName) { Die "node-tls-client in $Package loads $leaf (Node's process.arch), not ${NodeName}: a 32-bit Node?" }
    [void] $Targets.Add(@('node-tls-client', (Split-Path -Parent $p), $NodeName))
  } else {
    [void] $Targets.Add(@('node-tls-client', (Get-NodeTmpdir), $NodeName))
  }
}

function Add-Node([string] $Dir) {
  if (-not (Test-Path -LiteralPath $Dir -PathType Container)) { Die "-Node ${Dir}: no such folder" }
  $d = (Resolve-Path -LiteralPath $Dir).ProviderPath
  $inModules = Join-Path $d 'node_modules\node-tls-client'
  $pj = Join-Path $d 'package.json'
  if (Test-Path -LiteralPath (Join-Path $inModules 'package.json')) {
    Add-NodePackage $inModules
  } elseif ((Test-Path -LiteralPath $pj) -and ((Get-Content -LiteralPath $pj -Raw) -match '"name"\s*:\s*"node-tls-client"')) {
    Add-NodePackage $d
  } elseif ((Test-Path -LiteralPath $pj) -or (Test-Path -LiteralPath (Join-Path $d 'node_modules'))) {
    Die "-Node ${d}: a Node project without node_modules\node-tls-client (npm install node-tls-client), or give the cache folder"
  } else {
    [void] $Targets.Add(@('node-tls-client', $d, $NodeName))   # the cache folder itself
  }
}

function Get-PythonPackage {
  # find_spec, not import: tls_client's import loads the library
  $code = 'import importlib.util as u,sys;s=u.find_spec(sys.argv[1]);sys.stdout.write(list(s.submodule_search_locations)[0] if s and s.submodule_search_locations else str())'
  return Invoke-Quiet $PythonExe @('-c', $code, 'tls_client')
}

function Add-PythonPackage([string] $Package) {
  $deps = Join-Path $Package 'dependencies'
  if (-not (Test-Path -LiteralPath $deps -PathType Container)) { Die "$Package has no dependencies folder: not Python's tls_client?" }
  [void] $Targets.Add(@('tls_client', (Resolve-Path -LiteralPath $deps).ProviderPath, $PyName))
}

function Assert-Python64 {
  $bits = Invoke-Quiet $PythonExe @('-c', 'import struct,sys;sys.stdout.write(str(struct.calcsize(sys.argv[1])*8))', 'P')
  if ($bits -and $bits -ne '64') { Die "$PythonExe is $bits-bit: tls_client there loads tls-client-32.dll, and this library is x64" }
}

$explicit = $Node -or $Python -or $PythonDir
if ($explicit) {
  foreach ($d in @($Node | Where-Object { $_ })) { Add-Node $d }
  if ($PythonDir) {
    if (-not (Test-Path -LiteralPath $PythonDir -PathType Container)) { Die "-PythonDir ${PythonDir}: no such folder" }
    $sub = Join-Path $PythonDir 'tls_client'
    if (Test-Path -LiteralPath $sub -PathType Container) { Add-PythonPackage $sub } else { Add-PythonPackage $PythonDir }
  }
  if ($Python) {
    $p = Get-PythonPackage
    if (-not $p) { Die "-Python: $PythonExe finds no tls_client (pip install tls_client, or -PythonDir DIR)" }
    Assert-Python64
    Add-PythonPackage $p
  }
} else {
  $found = $false
  $resolved = Invoke-Quiet 'node' @('-e', 'try{process.stdout.write(require.resolve(process.argv[1],{paths:[process.cwd()]}))}catch(e){}', 'node-tls-client/package.json')
  if ($resolved) {
    Add-NodePackage (Split-Path -Parent $resolved)
    $found = $true
  } elseif (Get-Command node -ErrorAction SilentlyContinue) {
    $t = Get-NodeTmpdir
    if ((Test-Path -LiteralPath (Join-Path $t $NodeName)) -or (Test-Path -LiteralPath (Join-Path $t "$NodeName.upstream"))) {
      [void] $Targets.Add(@('node-tls-client', $t, $NodeName))
      $found = $true
    }
  }
  if (-not $found) { Say "node-tls-client: not found from $((Get-Location).ProviderPath), and no $NodeName in $(Get-NodeTmpdir) (-Node DIR)" }
  $p = Get-PythonPackage
  if ($p) { Assert-Python64; Add-PythonPackage $p } else { Say "tls_client: $PythonExe finds none (-PythonDir DIR)" }
  if ($Targets.Count -eq 0) { Die 'no binding found: give -Node DIR or -PythonDir DIR' }
}

# --- install or uninstall, each file once
function Install-One([string] $Binding, [string] $Dir, [string] $Name) {
  if (-not (Test-Path -LiteralPath $Dir -PathType Container)) { Die "${Binding}: no folder $Dir" }
  $t = Join-Path $Dir $Name
  if (Test-Path -LiteralPath $t -PathType Leaf) {
    if ((Get-Hash $t) -eq $LibHash) { Say "${Binding}: $t is this library already"; return }
    try {
      if (Test-Ours $t) {
        Remove-Item -LiteralPath $t -Force
        Say "${Binding}: removed an earlier tls-client-cpp build from $t"
      } else {
        if (Test-Path -LiteralPath "$t.upstream") { Remove-Item -LiteralPath "$t.upstream" -Force }
        Move-Item -LiteralPath $t -Destination "$t.upstream"
        Say "${Binding}: saved the file that was there as $t.upstream"
      }
    } catch {
      Die "${Binding}: cannot move $t aside (in use by a running program? permissions?): $($_.Exception.Message)"
    }
  }
  $tmp = Join-Path $Dir (".$Name." + [System.IO.Path]::GetRandomFileName())
  try {
    Copy-Item -LiteralPath $LibPath -Destination $tmp
    Move-Item -LiteralPath $tmp -Destination $t
  } catch {
    if (Test-Path -LiteralPath $tmp) { Remove-Item -LiteralPath $tmp -Force }
    Die "${Binding}: could not write ${t}: $($_.Exception.Message)"
  }
  if ((Get-Hash $t) -ne $LibHash) { Die "${Binding}: $t differs from $LibPath after the copy" }
  Say "${Binding}: installed $t"
}

function Uninstall-One([string] $Binding, [string] $Dir, [string] $Name) {
  $t = Join-Path $Dir $Name
  if (Test-Path -LiteralPath $t -PathType Leaf) {
    if (-not (Test-Ours $t)) { Say "${Binding}: $t is not a tls-client-cpp build: left as it is"; return }
    try { Remove-Item -LiteralPath $t -Force } catch { Die "${Binding}: cannot remove $t (in use by a running program?): $($_.Exception.Message)" }
    Say "${Binding}: removed $t"
  } else {
    Say "${Binding}: no $t"
  }
  if (Test-Path -LiteralPath "$t.upstream" -PathType Leaf) {
    Move-Item -LiteralPath "$t.upstream" -Destination $t
    Say "${Binding}: restored $t from $t.upstream"
  } elseif ($Binding -eq 'node-tls-client') {
    Say "${Binding}: nothing saved; node-tls-client downloads upstream's library on its next initTLS()"
  } else {
    Say "${Binding}: nothing saved; pip install --force-reinstall tls_client puts upstream's back"
  }
}

$seen = @{}
foreach ($entry in $Targets) {
  $binding, $dir, $name = $entry
  $key = (Join-Path $dir $name).ToLowerInvariant()
  if ($seen.ContainsKey($key)) { continue }
  $seen[$key] = $true
  if ($Uninstall) { Uninstall-One $binding $dir $name } else { Install-One $binding $dir $name }
}
