/**
 * The long-lived sandbox's supervisor: pid 1 of the sandbox, in Perl, which every Debian-like /usr
 * has (perl-base is essential) and which, unlike node, can make itself non-dumpable and stays small
 * (one thread, a few MB). It loads no module but strict: POSIX alone costs 8 ms of CPU per start, more
 * than the rest of the script, so the few calls it needed are made with core Perl or `syscall`.
 * It runs one command at a time, each in its own session and process group;
 * when the command's first process exits it kills everything else in the sandbox, reaps it, and
 * puts /tmp, /dev, SysV IPC and the user keyrings back as they were, then reports.
 *
 * Why a command cannot forge what the supervisor reports:
 * - its requests come on fd 0 and its reports go out on fd 5, both sockets the command does not
 *   inherit (close-on-exec; the command's stdin is /dev/null);
 * - it is not dumpable (PR_SET_DUMPABLE 0), so nothing in the sandbox may open its /proc/1/fd
 *   entries, read or write its memory or trace it (the same uid would otherwise suffice);
 * - it is pid 1 of the pid namespace, so no process inside can kill or stop it;
 * - the command's output goes to fds 1 and 2 directly; the supervisor marks the end of it with a
 *   fence the host chose for this command and the command never sees.
 *
 * Protocol. Request: `<length>\n` then NUL-separated fields: fence, cwd, number of environment
 * entries, the entries (`KEY=value`), argv. Report: `ready\n` once, then per request
 * `done <fence> <wait status> <clean>\n`; clean is 0 when something could not be put back, and the
 * host then retires the sandbox. EOF on fd 0 ends the supervisor, and with it the sandbox.
 */
export const SUPERVISOR_PERL = String.raw`
use strict;
my ($PRCTL, $KEYCTL, $SETSID, $CLOSE, $EXIT) = @ARGV;
# Fcntl's F_SETFD and FD_CLOEXEC: the same numbers on every Linux architecture.
my ($F_SETFD, $FD_CLOEXEC) = (2, 1);
sub close_fd { syscall($CLOSE + 0, $_[0] + 0); }
# exit_group without Perl's own exit (no buffers flushed, no destructors) in a forked child.
sub quit { syscall($EXIT + 0, $_[0]); }
syscall($PRCTL + 0, 4, 0, 0, 0, 0) == 0 or die "patchgate-supervisor: prctl: $!\n";
opendir(my $fds, "/proc/self/fd") or die "patchgate-supervisor: /proc/self/fd: $!\n";
my @open = grep { /^\d+$/ && $_ > 2 && $_ != 5 } readdir $fds;
closedir $fds;
close_fd($_) for @open;
open(my $ctl, ">&=", 5) or die "patchgate-supervisor: fd 5: $!\n";
fcntl($ctl, $F_SETFD, $FD_CLOEXEC); fcntl(STDIN, $F_SETFD, $FD_CLOEXEC);

sub read_exact { my ($n) = @_; my $buf = "";
  while (length($buf) < $n) { my $got = sysread(STDIN, $buf, $n - length($buf), length($buf)); return undef unless $got; }
  return $buf; }
sub read_request { my $len = "";
  while (1) { my $c; return undef unless sysread(STDIN, $c, 1); last if $c eq "\n"; $len .= $c; }
  return $len =~ /^\d+$/ ? read_exact($len) : undef; }

# Empties a directory of what lives on its own filesystem; mount points (a toolchain bound below
# /tmp) and the directories above them stay. Returns (nothing else is left, a mount was kept).
sub clear_dir { my ($dir, $dev) = @_; my ($ok, $kept) = (1, 0);
  opendir(my $dh, $dir) or return (0, 0);
  my @names = grep { $_ ne "." && $_ ne ".." } readdir $dh; closedir $dh;
  for my $name (@names) { my $p = "$dir/$name"; my @st = lstat $p; next unless @st;
    if ($st[0] != $dev) { $kept = 1; next; }
    if (-d _) { chmod 0700, $p; my ($o, $k) = clear_dir($p, $dev); $ok = 0 unless $o;
      if ($k) { $kept = 1; chmod 0755, $p; } elsif (!rmdir $p) { $ok = 0; } }
    elsif (!unlink $p) { $ok = 0; } }
  return ($ok, $kept); }

sub remove_entry { my ($p, $dev) = @_; my @st = lstat $p; return 1 unless @st; return 0 if $st[0] != $dev;
  return unlink($p) ? 1 : 0 unless -d _;
  chmod 0700, $p; my ($ok) = clear_dir($p, $dev); return $ok && rmdir($p) ? 1 : 0; }

# /dev as bwrap made it: its symlinks and directories by name, mount points left as they are.
sub snapshot_dev { my %s; my $dev = (lstat "/dev")[0];
  opendir(my $dh, "/dev") or die "patchgate-supervisor: /dev: $!\n";
  for my $name (grep { $_ ne "." && $_ ne ".." } readdir $dh) { my $p = "/dev/$name"; my @st = lstat $p;
    $s{$name} = $st[0] != $dev ? ["mount"] : -l _ ? ["link", readlink $p] : -d _ ? ["dir", $st[2] & 07777] : ["file"]; }
  closedir $dh; return ($dev, (lstat "/dev")[2] & 07777, \%s); }

sub reset_dev { my ($dev, $mode, $s) = @_; my $ok = 1;
  opendir(my $dh, "/dev") or return 0;
  for my $name (grep { $_ ne "." && $_ ne ".." && !exists $s->{$_} } readdir $dh) { $ok = 0 unless remove_entry("/dev/$name", $dev); }
  closedir $dh;
  for my $name (keys %$s) { my ($kind, $arg) = @{$s->{$name}}; my $p = "/dev/$name";
    if ($kind eq "link") { my $now = readlink $p;
      next if defined $now && $now eq $arg;
      $ok = 0 unless remove_entry($p, $dev) && symlink($arg, $p); }
    elsif ($kind eq "dir") {
      if (!-d $p || -l $p) { $ok = 0 unless remove_entry($p, $dev) && mkdir($p); }
      chmod 0700, $p; my ($o) = clear_dir($p, $dev); $ok = 0 unless $o; chmod $arg, $p; } }
  chmod $mode, "/dev"; return $ok ? 1 : 0; }

sub reset_tmp { my $dev = (lstat "/tmp")[0]; chmod 0755, "/tmp";
  my ($ok) = clear_dir("/tmp", $dev); mkdir "/tmp/home", 0755 or -d "/tmp/home" or $ok = 0; return $ok ? 1 : 0; }

sub clear_ipc {
  for my $kind (["shm", sub { shmctl($_[0], 0, 0) }], ["sem", sub { semctl($_[0], 0, 0, 0) }], ["msg", sub { msgctl($_[0], 0, 0) }]) {
    open(my $f, "<", "/proc/sysvipc/$kind->[0]") or next; <$f>;
    while (my $line = <$f>) { my @c = split " ", $line; $kind->[1]->($c[1]); } }
  return 1; }

# The user and user-session keyrings outlive a command: they belong to the uid in the sandbox's user
# namespace, not to a process. KEYCTL_CLEAR (7) empties both. Only in a user namespace of our own
# (uid_map is not the host's whole range): in the host's namespace they would be the host user's.
sub own_user_ns { open(my $f, "<", "/proc/self/uid_map") or return 0; my $map = join "", <$f>;
  return $map !~ /^\s*0\s+0\s+4294967295\s*$/; }
my $OWN_USER_NS = own_user_ns();
sub clear_keyrings { return 1 unless $OWN_USER_NS;
  for my $ring (-4, -5) { return 0 unless syscall($KEYCTL + 0, 7, $ring) == 0; }
  return 1; }

sub run_command { my ($cwd, $env, $argv) = @_;
  syscall($SETSID + 0) >= 0 or quit(126);
  open(STDIN, "<", "/dev/null") or quit(126);
  %ENV = map { split /=/, $_, 2 } @$env;
  chdir $cwd or do { print STDERR "patchgate-sandbox: cannot chdir to $cwd: $!\n"; quit(1); };
  $ENV{PWD} = $cwd;
  exec { $argv->[0] } @$argv;
  print STDERR "patchgate-sandbox: cannot execute $argv->[0]: $!\n"; quit(127); }

my @dev = snapshot_dev();
syswrite($ctl, "ready\n");
while (defined(my $req = read_request())) {
  my ($fence, $cwd, $nenv, @rest) = split /\0/, $req, -1;
  my @env = splice @rest, 0, $nenv;
  my $pid = fork();
  if (!defined $pid) { syswrite($ctl, "done $fence -1 0\n"); next; }
  run_command($cwd, \@env, \@rest) if $pid == 0;
  my $status = -1;
  while ((my $w = waitpid(-1, 0)) > 0) { if ($w == $pid) { $status = $?; last; } }
  # Whatever the command left: kill(-1) from pid 1 reaches every other process of the sandbox at once.
  kill "KILL", -1;
  1 while waitpid(-1, 0) > 0;
  my $clean = (reset_tmp() & reset_dev(@dev) & clear_ipc() & clear_keyrings()) ? 1 : 0;
  syswrite(STDOUT, "\0$fence\0"); syswrite(STDERR, "\0$fence\0");
  syswrite($ctl, "done $fence $status $clean\n");
}
`;

/** The syscall numbers Perl's syscall needs; architectures not listed use the one-shot sandbox. */
export const SUPERVISOR_SYSCALLS: Partial<Record<NodeJS.Architecture, SupervisorSyscalls>> = {
  x64: { prctl: 157, keyctl: 250, setsid: 112, close: 3, exitGroup: 231 },
  arm64: { prctl: 167, keyctl: 219, setsid: 157, close: 57, exitGroup: 94 },
};

export interface SupervisorSyscalls {
  prctl: number;
  keyctl: number;
  setsid: number;
  close: number;
  exitGroup: number;
}

/** The supervisor's arguments, in the order its first line reads them. */
export function supervisorArgs(syscalls: SupervisorSyscalls): string[] {
  return [syscalls.prctl, syscalls.keyctl, syscalls.setsid, syscalls.close, syscalls.exitGroup].map(String);
}

/** Where the supervisor's report channel sits in its descriptors (after stdio and bwrap's handshake pipes). */
export const CONTROL_FD = 5;
