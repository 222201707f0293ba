/*
 * What a JDBC BI tool (Metabase, DBeaver, Tableau's JDBC path) sees: the BI
 * views of kernelindex through pgJDBC (Debian's libpostgresql-jdbc-java), as a
 * read-only login role over TCP with a password.
 *
 * Proves that DatabaseMetaData.getTables lists the views (every view it lists
 * is one checked here, or one of NOT_BI), that getColumns
 * gives each view's columns in pg_attribute order with plain java.sql.Types
 * and (for run_facts) the column comments as REMARKS, that every row reads,
 * that digests arrive as Strings, that one known speedup has its exact
 * values, and that the role cannot write.  Connects with KIDX_HOST,
 * KIDX_PORT, KIDX_DB, KIDX_USER and KIDX_PASSWORD.  Prints one line per check
 * and `jdbc: N passed, N failed`; exits 1 if any check failed.
 */
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

public class KidxJdbcClient {
    static final List<String> VIEWS = List.of(
        "run_facts", "latest_runs", "speedups", "release_ranks", "releases",
        "release_runs", "release_speedups", "release_changes", "speedup_since", "change_points",
        "series_change_points").stream().sorted().toList();
    // Views of kernelindex that are no BI view: the COPY targets and the
    // runs' documents as jsonb (as in checks.py).
    static final Set<String> NOT_BI = Set.of("liger_rows", "run_rows", "documents", "run_bundles");
    static final Set<Integer> PLAIN_TYPES = Set.of(
        Types.VARCHAR, Types.BIGINT, Types.INTEGER, Types.NUMERIC, Types.DOUBLE,
        Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE, Types.BIT, Types.BOOLEAN);
    static final Pattern DIGEST = Pattern.compile("^sha256:[0-9a-f]{64}$");

    static int passed = 0;
    static int failed = 0;

    /** Count and report one check. */
    static void check(String name, boolean ok, String detail) {
        if (ok) {
            passed++;
            System.out.println("ok: " + name);
        } else {
            failed++;
            System.out.println("FAILED: " + name + " " + detail);
        }
    }

    static String env(String name) {
        String v = System.getenv(name);
        if (v == null) throw new IllegalStateException(name + " is not set");
        return v;
    }

    public static void main(String[] args) throws SQLException {
        String url = "jdbc:postgresql://" + env("KIDX_HOST") + ":" + env("KIDX_PORT") + "/" + env("KIDX_DB");
        Properties props = new Properties();
        props.setProperty("user", env("KIDX_USER"));
        props.setProperty("password", env("KIDX_PASSWORD"));
        props.setProperty("ApplicationName", "kidx-jdbc-client");
        try (Connection conn = DriverManager.getConnection(url, props)) {
            run(conn);
        } catch (SQLException e) {
            check("no unexpected SQL error", false, e.getSQLState() + " " + e.getMessage());
        }
        System.out.println("jdbc: " + passed + " passed, " + failed + " failed");
        System.exit(failed == 0 ? 0 : 1);
    }

    static void run(Connection conn) throws SQLException {
        // a. Over TCP, as the read-only role.
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT inet_server_addr() IS NOT NULL, current_user")) {
            rs.next();
            boolean tcp = rs.getBoolean(1);
            String who = rs.getString(2);
            check("connected over TCP as the reader", tcp && env("KIDX_USER").equals(who),
                  "tcp=" + tcp + " user=" + who);
        }

        // b. getTables lists the views.
        DatabaseMetaData md = conn.getMetaData();
        Set<String> listed = new TreeSet<>();
        try (ResultSet rs = md.getTables(null, "kernelindex", "%", new String[] {"VIEW"})) {
            while (rs.next()) listed.add(rs.getString("TABLE_NAME"));
        }
        List<String> missing = VIEWS.stream().filter(v -> !listed.contains(v)).toList();
        check("getTables lists every BI view", missing.isEmpty(), "missing " + missing);
        List<String> unknown = listed.stream().filter(v -> !VIEWS.contains(v) && !NOT_BI.contains(v)).toList();
        check("every view getTables lists is a BI view checked here (or one of " + NOT_BI + ")",
              unknown.isEmpty(), "not checked: " + unknown);

        // Table name arguments are LIKE patterns: escape '_' and '%'.
        String esc = md.getSearchStringEscape();
        for (String view : VIEWS) {
            List<String> expected = new ArrayList<>();
            List<String> comments = new ArrayList<>();
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT attname, col_description(attrelid, attnum) FROM pg_attribute"
                    + " WHERE attrelid = ?::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum")) {
                ps.setString(1, "kernelindex." + view);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        expected.add(rs.getString(1));
                        comments.add(rs.getString(2));
                    }
                }
            }

            // b. getColumns: names in order, plain types, comments as REMARKS.
            List<String> names = new ArrayList<>();
            List<String> odd = new ArrayList<>();
            List<String> remarks = new ArrayList<>();
            String pattern = view.replace(esc, esc + esc).replace("_", esc + "_").replace("%", esc + "%");
            try (ResultSet rs = md.getColumns(null, "kernelindex", pattern, "%")) {
                while (rs.next()) {
                    String col = rs.getString("COLUMN_NAME");
                    int type = rs.getInt("DATA_TYPE");
                    names.add(col);
                    remarks.add(rs.getString("REMARKS"));
                    if (!PLAIN_TYPES.contains(type)) odd.add(col + ":" + rs.getString("TYPE_NAME") + "=" + type);
                }
            }
            check(view + ": getColumns names in order", names.equals(expected) && !names.isEmpty(),
                  "got " + names + " want " + expected);
            check(view + ": getColumns types are plain", odd.isEmpty(), odd.toString());
            if (view.equals("run_facts")) {
                List<String> bare = new ArrayList<>();
                for (int i = 0; i < names.size(); i++) {
                    String r = remarks.get(i);
                    if (r == null || r.isBlank() || i >= comments.size() || !r.equals(comments.get(i))) bare.add(names.get(i));
                }
                check(view + ": getColumns REMARKS are the column comments", bare.isEmpty() && !names.isEmpty(),
                      "no or another comment on " + bare);
            }

            // c. Every row reads, every value decodes; the count is the server's.
            long got = 0;
            long want = -1;
            try (Statement st = conn.createStatement()) {
                try (ResultSet rs = st.executeQuery("SELECT * FROM kernelindex." + view)) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int i = 1; i <= n; i++) rs.getObject(i);
                        got++;
                    }
                }
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM kernelindex." + view)) {
                    rs.next();
                    want = rs.getLong(1);
                }
            }
            check(view + ": read " + got + " rows", got == want, "count(*) is " + want);
        }

        // d. Digests arrive as Strings.
        long rows = 0;
        List<String> bad = new ArrayList<>();
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT run_digest, comparability_key FROM kernelindex.run_facts")) {
            while (rs.next()) {
                rows++;
                for (int i = 1; i <= 2; i++) {
                    Object v = rs.getObject(i);
                    if (!(v instanceof String s && DIGEST.matcher(s).matches())) bad.add(String.valueOf(v));
                }
            }
        }
        check("run_facts: digests are sha256 strings in all " + rows + " rows", rows > 0 && bad.isEmpty(),
              bad.stream().limit(3).toList().toString());

        // e. The known value, found with a PreparedStatement.
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT speedup, reference_latency_ms, latency_ms, outside_noise FROM kernelindex.speedups"
                + " WHERE kernel = ? AND gpu = ? AND pass = ? AND metric = ? AND provider = ? AND workload_label = ?")) {
            String[] filter = {"sparsemax", "NVIDIA GeForce RTX 3090", "backward", "latency", "liger",
                               "features16384-tokens2048-fp32"};
            for (int i = 0; i < filter.length; i++) ps.setString(i + 1, filter[i]);
            List<Object[]> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(new Object[] {rs.getObject(1), rs.getBigDecimal(2), rs.getBigDecimal(3), rs.getObject(4)});
                }
            }
            check("speedups: the sparsemax backward row exists once", found.size() == 1, found.size() + " rows");
            if (found.size() == 1) {
                Object[] r = found.get(0);
                double want = 2.629631996154785 / 0.7516160011291504;
                check("speedups: speedup is the ratio",
                      r[0] instanceof Double d && Math.abs(d - want) <= 1e-6 * want, r[0] + " want " + want);
                check("speedups: reference_latency_ms is exactly 2.629632",
                      r[1] != null && ((BigDecimal) r[1]).compareTo(new BigDecimal("2.629632")) == 0, String.valueOf(r[1]));
                check("speedups: latency_ms is exactly 0.751616",
                      r[2] != null && ((BigDecimal) r[2]).compareTo(new BigDecimal("0.751616")) == 0, String.valueOf(r[2]));
                check("speedups: outside_noise is true", Boolean.TRUE.equals(r[3]), String.valueOf(r[3]));
            }
        }

        // f. The role cannot write.
        conn.setAutoCommit(false);
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO kernelindex.liger_rows (kernel_name) VALUES (?)")) {
            ps.setString(1, "kidx-client-probe");
            ps.executeUpdate();
            check("insert is refused with 42501", false, "the insert succeeded");
        } catch (SQLException e) {
            check("insert is refused with 42501", "42501".equals(e.getSQLState()), e.getSQLState() + " " + e.getMessage());
        } finally {
            conn.rollback();
            conn.setAutoCommit(true);
        }
    }
}
