# A psql session a TAP test feeds statement by statement, to race two
# transactions (test/t/030_references.pl, test/t/060_citus.pl):
#
#   session($connstr)       a psql on the connection string, its pid in {pid}
#   run_wait($s, $sql)      send SQL, wait until it has run; its output
#   run_nowait($s, $sql)    send SQL without waiting; the marker to wait for
#   wait_for($s, $marker)   wait for what run_nowait sent
#   errors($s)              the SQLSTATEs it reported since last asked,
#                           comma-separated
#
# The tests use it with `use lib $FindBin::RealBin; use KidxSession;`.
package KidxSession;

use strict;
use warnings;

use IPC::Run;
use Exporter 'import';

our @EXPORT = qw(session run_wait run_nowait wait_for errors);

my $marker = 0;

# A psql session (errors reported by SQLSTATE), and its backend's pid.
sub session
{
	my ($connstr) = @_;
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start([ 'psql', '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=0', '-d', $connstr ],
		'<', \$in, '>', \$out, '2>', \$err);
	my $s = { h => $h, in => \$in, out => \$out, err => \$err };
	run_wait($s, '\set VERBOSITY sqlstate');
	$s->{pid} = run_wait($s, 'SELECT pg_backend_pid()');
	return $s;
}

# Send SQL and wait until it has run; its output (without the marker).
sub run_wait
{
	my ($s, $sql) = @_;
	my $m = 'done' . ++$marker;
	${ $s->{out} } = '';
	${ $s->{in} } .= ($sql =~ /^\\/ ? $sql : "$sql;") . "\n\\echo $m\n";
	$s->{h}->pump until ${ $s->{out} } =~ /$m/;
	(my $res = ${ $s->{out} }) =~ s/\n?$m\n?//;
	chomp $res;
	return $res;
}

# Send SQL without waiting; the marker to wait for later.
sub run_nowait
{
	my ($s, $sql) = @_;
	my $m = 'done' . ++$marker;
	${ $s->{out} } = '';
	${ $s->{in} } .= "$sql;\n\\echo $m\n";
	$s->{h}->pump_nb;
	return $m;
}

# Wait for what run_nowait sent.
sub wait_for
{
	my ($s, $m) = @_;
	$s->{h}->pump until ${ $s->{out} } =~ /$m/;
}

# The SQLSTATEs a session reported since it was last asked.
sub errors
{
	my ($s) = @_;
	my @codes = ${ $s->{err} } =~ /ERROR:\s+(\w{5})/g;
	${ $s->{err} } = '';
	return join(',', @codes);
}

1;
