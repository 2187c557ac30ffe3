/**
 * How the reaper (reaper.ts) is started on each platform. Both read `+ID` / `-ID` lines from a
 * pipe only Harbor holds, and both act when that pipe ends — Harbor exited, however it exited.
 *
 * POSIX: `/bin/sh` recording process groups; on EOF, SIGTERM, a grace, SIGKILL (REAPER_SCRIPT).
 *
 * Windows: the platform's own answer, a Job object with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE and no
 * breakaway. Windows PowerShell (on every Windows 10 and later) compiles a few P/Invoke lines with
 * Add-Type — no native module ships with Harbor — creates the job, and assigns each server's
 * process to it as its `+PID` line arrives; the processes that server starts afterwards are born
 * in the job. The job's only handle is the reaper's: when the pipe ends the script ends, the
 * handle closes, and Windows ends every process still in the job. If the reaper itself is killed
 * with Harbor (it is in libuv's own kill-on-close job, as every child spawned without `detached`
 * is), the handle closes all the same. A child a server starts before its `+PID` line is handled
 * (the first few hundred milliseconds) is not in the job; the stop ladder's `taskkill /T` covers
 * it when Harbor stops normally.
 *
 * The Windows half cannot run on the machines Harbor is tested on (Linux): its test
 * (test/faults/reaper-windows.test.ts) runs on Windows and is skipped elsewhere, saying why.
 */

/** How long the recorded groups get after SIGTERM before SIGKILL, in 0.2 s steps (2 s). */
const TERM_STEPS = 10;

/**
 * The POSIX reaper, sh: records groups from stdin; on EOF, TERM, a grace, KILL. `kill` and `read`
 * are builtins; only `sleep` is a program (fractions work with GNU and BSD sleep).
 */
export const REAPER_SCRIPT = `trap '' HUP INT
groups=' '
while IFS= read -r line; do
  g=\${line#?}
  case $g in ''|*[!0-9]*) continue ;; esac
  case $line in
    +*) groups="$groups$g " ;;
    -*) case $groups in *" $g "*) groups="\${groups%% $g *} \${groups#* $g }" ;; esac ;;
  esac
done
[ -z "\${groups# }" ] && exit 0
for g in $groups; do kill -s TERM -- "-$g" 2>/dev/null; done
i=0
while [ $i -lt ${TERM_STEPS} ]; do
  alive=''
  for g in $groups; do kill -s 0 -- "-$g" 2>/dev/null && alive="$alive $g"; done
  [ -z "$alive" ] && exit 0
  groups=$alive
  sleep 0.2
  i=$((i + 1))
done
for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done
exit 0
`;

/**
 * The Windows reaper, PowerShell. JOBOBJECT_EXTENDED_LIMIT_INFORMATION (class 9) with LimitFlags
 * 0x2000 (KILL_ON_JOB_CLOSE) and nothing else: breakaway is not allowed, so a server's children
 * stay in the job. OpenProcess asks only PROCESS_SET_QUOTA | PROCESS_TERMINATE (0x0101), what
 * AssignProcessToJobObject needs. A `-PID` line needs nothing: a process that is gone has left
 * the job.
 */
export const WINDOWS_REAPER_SCRIPT = `$ErrorActionPreference = 'Stop'
Add-Type -TypeDefinition @'
using System;
using System.Runtime.InteropServices;
public static class HarborReaperJob {
  [StructLayout(LayoutKind.Sequential)] struct Basic { public long PerProcessUserTimeLimit; public long PerJobUserTimeLimit; public uint LimitFlags; public UIntPtr MinimumWorkingSetSize; public UIntPtr MaximumWorkingSetSize; public uint ActiveProcessLimit; public UIntPtr Affinity; public uint PriorityClass; public uint SchedulingClass; }
  [StructLayout(LayoutKind.Sequential)] struct Io { public ulong ReadOps, WriteOps, OtherOps, ReadBytes, WriteBytes, OtherBytes; }
  [StructLayout(LayoutKind.Sequential)] struct Extended { public Basic BasicLimits; public Io IoInfo; public UIntPtr ProcessMemoryLimit; public UIntPtr JobMemoryLimit; public UIntPtr PeakProcessMemoryUsed; public UIntPtr PeakJobMemoryUsed; }
  [DllImport("kernel32.dll", SetLastError = true)] static extern IntPtr CreateJobObject(IntPtr attributes, string name);
  [DllImport("kernel32.dll", SetLastError = true)] static extern bool SetInformationJobObject(IntPtr job, int infoClass, ref Extended info, uint length);
  [DllImport("kernel32.dll", SetLastError = true)] static extern bool AssignProcessToJobObject(IntPtr job, IntPtr process);
  [DllImport("kernel32.dll", SetLastError = true)] static extern IntPtr OpenProcess(uint access, bool inherit, uint pid);
  [DllImport("kernel32.dll")] static extern bool CloseHandle(IntPtr handle);
  static IntPtr job;
  public static void Create() {
    job = CreateJobObject(IntPtr.Zero, null);
    if (job == IntPtr.Zero) throw new Exception("CreateJobObject failed: " + Marshal.GetLastWin32Error());
    var info = new Extended();
    info.BasicLimits.LimitFlags = 0x2000;
    if (!SetInformationJobObject(job, 9, ref info, (uint)Marshal.SizeOf(typeof(Extended)))) throw new Exception("SetInformationJobObject failed: " + Marshal.GetLastWin32Error());
  }
  public static bool Assign(uint pid) {
    IntPtr process = OpenProcess(0x0101, false, pid);
    if (process == IntPtr.Zero) return false;
    bool assigned = AssignProcessToJobObject(job, process);
    CloseHandle(process);
    return assigned;
  }
}
'@
[HarborReaperJob]::Create()
while ($null -ne ($line = [Console]::In.ReadLine())) {
  # The answer on stdout is for tests (Harbor does not read it): the process is in the job now.
  if ($line -match '^\\+(\\d+)$') { [Console]::Out.WriteLine("assigned " + $Matches[1] + " " + [HarborReaperJob]::Assign([uint32]$Matches[1])) }
}
`;

export interface ReaperCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** POSIX: a session of its own, so a terminal's SIGINT/SIGHUP to Harbor's group does not reach it. */
  readonly detached: boolean;
}

/** The program that runs the reaper on `platform`; `shell` overrides the POSIX shell (tests). */
export function reaperCommand(platform: NodeJS.Platform, shell?: string): ReaperCommand {
  if (platform === 'win32') {
    // -EncodedCommand (UTF-16LE, base64) keeps stdin free for the pid lines and needs no quoting.
    const encoded = Buffer.from(WINDOWS_REAPER_SCRIPT, 'utf16le').toString('base64');
    // In libuv's job like any child spawned without `detached`: killed with Harbor at worst, which closes the handle too.
    return { command: 'powershell.exe', args: ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', encoded], detached: false };
  }
  return { command: shell ?? '/bin/sh', args: ['-c', REAPER_SCRIPT], detached: true };
}
