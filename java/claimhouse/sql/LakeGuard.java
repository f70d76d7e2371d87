package claimhouse.sql;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.execution.command.SetCommand;
import scala.Function1;
import scala.Option;
import scala.Tuple2;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * Roles on the SQL endpoint, enforced inside Spark (`spark.sql.extensions`): a check rule that
 * every statement a client sends passes through after analysis, before it runs; and, for a
 * reader's DELETE, UPDATE and MERGE, a resolution rule ahead of Delta's, which would otherwise
 * fail them first with its own message (a gold view is not a Delta source).
 *
 * <ul>
 *   <li>reader (the default): queries, DESCRIBE, SHOW, EXPLAIN, USE, Delta's DESCRIBE HISTORY
 *       and DETAIL, time travel; nothing that writes, no DDL, no SET of a value;
 *   <li>writer: that, plus writes and DDL whose every target is in the `sandbox` schema.
 * </ul>
 *
 * The client's user is the one HiveServer2 authenticated: with `hive.server2.enable.doAs` each
 * statement runs as that user's UGI. Statements the server process issues itself (its catalog
 * refresh) run as the process's login user and pass.
 */
public final class LakeGuard extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  public static final String SANDBOX = "sandbox";

  private static final Set<String> READ_ONLY =
      new HashSet<>(
          Arrays.asList(
              "DescribeTableCommand",
              "DescribeColumnCommand",
              "DescribeRelation",
              "DescribeColumn",
              "DescribeNamespace",
              "DescribeDatabaseCommand",
              "DescribeFunction",
              "DescribeFunctionCommand",
              "DescribeQueryCommand",
              "DescribeDeltaHistory",
              "DescribeDeltaHistoryCommand",
              "DescribeDeltaDetailCommand",
              "ShowTables",
              "ShowTablesCommand",
              "ShowTableExtended",
              "ShowTablesExtended",
              "ShowNamespaces",
              "ShowNamespacesCommand",
              "ShowCatalogs",
              "ShowCatalogsCommand",
              "ShowColumns",
              "ShowColumnsCommand",
              "ShowViews",
              "ShowViewsCommand",
              "ShowFunctions",
              "ShowFunctionsCommand",
              "ShowPartitions",
              "ShowPartitionsCommand",
              "ShowCreateTable",
              "ShowCreateTableCommand",
              "ShowTableProperties",
              "ShowTablePropertiesCommand",
              "ShowCurrentNamespace",
              "ShowCurrentNamespaceCommand",
              "SetCatalogAndNamespace",
              "SetCatalogCommand",
              "SetNamespaceCommand",
              "ExplainCommand"));

  private static final Set<String> ROW_WRITES =
      new HashSet<>(Arrays.asList("DeleteFromTable", "UpdateTable", "MergeIntoTable"));

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectResolutionRule(
        new AbstractFunction1<SparkSession, Rule<LogicalPlan>>() {
          @Override
          public Rule<LogicalPlan> apply(SparkSession session) {
            return new Rule<LogicalPlan>() {
              @Override
              public LogicalPlan apply(LogicalPlan plan) {
                if (ROW_WRITES.contains(plan.getClass().getSimpleName())) {
                  check(plan, true);
                }
                return plan;
              }
            };
          }
        });
    extensions.injectCheckRule(
        new AbstractFunction1<SparkSession, Function1<LogicalPlan, BoxedUnit>>() {
          @Override
          public Function1<LogicalPlan, BoxedUnit> apply(SparkSession session) {
            return new AbstractFunction1<LogicalPlan, BoxedUnit>() {
              @Override
              public BoxedUnit apply(LogicalPlan plan) {
                check(plan, false);
                return BoxedUnit.UNIT;
              }
            };
          }
        });
    return BoxedUnit.UNIT;
  }

  /** Refuses what this user's role may not run; `readersOnly`: leave writers to the later check. */
  static void check(LogicalPlan plan, boolean readersOnly) {
    String user;
    try {
      UserGroupInformation current = UserGroupInformation.getCurrentUser();
      if (current.equals(UserGroupInformation.getLoginUser())) {
        return; // the server's own statements
      }
      user = current.getShortUserName();
    } catch (IOException e) {
      throw new SecurityException("claimhouse: cannot tell who sent this statement; refused");
    }
    String role = Users.role(user);
    if (readersOnly && "writer".equals(role)) {
      return;
    }
    List<String> refused = new ArrayList<>();
    visit(plan, role, refused);
    if (!refused.isEmpty()) {
      throw new SecurityException(
          "claimhouse: user '"
              + user
              + "' ("
              + role
              + ") may not run "
              + String.join(", ", refused)
              + ("writer".equals(role)
                  ? ": a writer writes only in the " + SANDBOX + " schema"
                  : ": a reader may query, DESCRIBE, SHOW and read history; nothing else"));
    }
  }

  private static void visit(LogicalPlan node, String role, List<String> refused) {
    String name = node.getClass().getSimpleName();
    if (node instanceof SetCommand) {
      Option<Tuple2<String, Option<String>>> kv = ((SetCommand) node).kv();
      if (kv.isDefined() && kv.get()._2().isDefined()) {
        refused.add("SET " + kv.get()._1());
      }
    } else if (READ_ONLY.contains(name)) {
      // reading the catalog or a table's history
    } else if (node instanceof Command || name.contains("Insert") || name.contains("Write")) {
      if (!("writer".equals(role) && onlyInSandbox(node))) {
        refused.add(name);
      }
      return; // a command's query child is read-only by construction of the checks above
    }
    for (LogicalPlan child : scala.jdk.javaapi.CollectionConverters.asJava(node.children())) {
      visit(child, role, refused);
    }
  }

  /** True when the command names at least one target and every one is in the sandbox. */
  static boolean onlyInSandbox(LogicalPlan command) {
    List<List<String>> targets = new ArrayList<>();
    scala.collection.Iterator<Object> fields = command.productIterator();
    while (fields.hasNext()) {
      collect(fields.next(), targets);
    }
    if (targets.isEmpty()) {
      return false;
    }
    for (List<String> namespace : targets) {
      if (!(namespace.size() == 1 && SANDBOX.equals(namespace.get(0)))) {
        return false;
      }
    }
    return true;
  }

  private static void collect(Object field, List<List<String>> targets) {
    if (field instanceof Option) {
      Option<?> option = (Option<?>) field;
      if (option.isDefined()) {
        collect(option.get(), targets);
      }
      return;
    }
    if (field instanceof TableIdentifier) {
      Option<String> database = ((TableIdentifier) field).database();
      targets.add(database.isDefined() ? List.of(database.get()) : List.of());
      return;
    }
    if (field instanceof CatalogTable) {
      collect(((CatalogTable) field).identifier(), targets);
      return;
    }
    if (field instanceof Identifier) {
      targets.add(Arrays.asList(((Identifier) field).namespace()));
      return;
    }
    if (!(field instanceof LogicalPlan)) {
      return;
    }
    // The resolved targets of DDL and writes: tables, views, namespaces, V2 relations.
    String name = field.getClass().getSimpleName();
    try {
      switch (name) {
        case "ResolvedIdentifier":
        case "ResolvedTable":
        case "ResolvedPersistentView":
          collect(field.getClass().getMethod("identifier").invoke(field), targets);
          break;
        case "ResolvedNamespace":
          targets.add(
              new ArrayList<>(
                  scala.jdk.javaapi.CollectionConverters.asJava(
                      (scala.collection.Seq<String>) field.getClass().getMethod("namespace").invoke(field))));
          break;
        case "DataSourceV2Relation":
          collect(field.getClass().getMethod("identifier").invoke(field), targets);
          break;
        case "LogicalRelation":
          collect(field.getClass().getMethod("catalogTable").invoke(field), targets);
          break;
        default:
          break; // a query: read, not written
      }
    } catch (ReflectiveOperationException e) {
      targets.add(List.of("?"));
    }
  }
}
