package dev.fabricscope.app.view;

import dev.fabricscope.app.viewmodel.AdvisorViewModel;
import dev.fabricscope.app.viewmodel.AdvisorViewModel.RecommendationCard;
import dev.fabricscope.app.viewmodel.AdvisorViewModel.VerdictRow;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import javafx.beans.property.SimpleStringProperty;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The Advisor tab: a deployment panel on the left, the verdict table (errors first) with the selected verdict's
 * message, when, why, fix and source below it, and the recommended configuration per framework.
 */
public final class AdvisorView extends BorderPane {

    private final AdvisorViewModel vm;
    private final TableView<VerdictRow> table = new TableView<>();
    private final VBox details = new VBox(8);
    private final VBox recommendations = new VBox(8);
    private final Consumer<String> openLink;

    public AdvisorView(AdvisorViewModel vm, Consumer<String> openLink) {
        this.vm = vm;
        this.openLink = openLink;
        getStyleClass().add("advisor-view");
        setLeft(panel());
        buildTable();
        table.getSelectionModel().selectedItemProperty().addListener((o, was, v) -> showDetails(v));
        showDetails(null);
        Label status = new Label();
        SafeText.bind(status.textProperty(), vm.statusProperty());
        status.getStyleClass().add("text-muted");
        status.setId("advisorStatus");
        status.setWrapText(true); // a refusal says what to change in a sentence or two: whole, not cut
        status.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        Label facts = new Label();
        facts.setId("advisorFacts");
        facts.setWrapText(true);
        facts.getStyleClass().add("text-muted");
        facts.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        vm.adviceProperty().addListener((o, was, a) -> facts.setText(a == null ? "" : describe(a)));
        facts.setText(vm.adviceProperty().get() == null ? "" : describe(vm.adviceProperty().get()));
        ScrollPane detailScroll = new ScrollPane(details);
        detailScroll.setFitToWidth(true);
        details.setPadding(new Insets(10, 14, 10, 14));
        ScrollPane recScroll = new ScrollPane(recommendations);
        recScroll.setFitToWidth(true);
        recommendations.setPadding(new Insets(10, 14, 10, 14));
        vm.recommendations().addListener((javafx.collections.ListChangeListener<RecommendationCard>) c -> showRecommendations());
        showRecommendations();
        SplitPane lower = new SplitPane(detailScroll, recScroll);
        lower.setDividerPositions(0.55);
        VBox top = new VBox(4, facts, table, status);
        top.setPadding(new Insets(8, 8, 4, 8));
        SplitPane split = new SplitPane(top, lower);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.55);
        VBox.setVgrow(table, Priority.ALWAYS);
        setCenter(split);
    }

    public TableView<VerdictRow> table() {
        return table;
    }

    /** What the TP field shows for 0, the advisor's "every GPU of the node". */
    static final String ALL_GPUS = "all GPUs";

    private ScrollPane panel() {
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(8);
        g.setPadding(new Insets(14));
        javafx.scene.layout.ColumnConstraints keys = new javafx.scene.layout.ColumnConstraints();
        keys.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        g.getColumnConstraints().add(keys);
        ComboBox<String> framework = new ComboBox<>();
        framework.getItems().add(AdvisorViewModel.ALL);
        framework.getItems().addAll(vm.frameworks());
        framework.valueProperty().bindBidirectional(vm.frameworkProperty());
        Spinner<Integer> nodes = spinner(1, 65_536, vm.nodesProperty().get());
        nodes.setId("advisorNodes");
        nodes.valueProperty().addListener((o, a, b) -> vm.nodesProperty().set(b));
        vm.nodesProperty().addListener((o, a, b) -> nodes.getValueFactory().setValue(b.intValue()));
        Spinner<Integer> tp = spinner(0, 512, vm.tpProperty().get());
        tp.setId("advisorTp");
        tp.getValueFactory().setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(Integer v) {
                return v == null || v == 0 ? ALL_GPUS : String.valueOf(v);
            }

            @Override
            public Integer fromString(String s) {
                String t = s == null ? "" : s.strip();
                if (t.isEmpty() || t.equalsIgnoreCase(ALL_GPUS) || t.equalsIgnoreCase("all")) {
                    return 0;
                }
                try {
                    return Math.max(0, Integer.parseInt(t));
                } catch (NumberFormatException e) {
                    return tp.getValue();
                }
            }
        });
        tp.getEditor().setText(tp.getValueFactory().getConverter().toString(tp.getValue()));
        tp.valueProperty().addListener((o, a, b) -> vm.tpProperty().set(b));
        Spinner<Integer> dcp = spinner(1, 64, vm.dcpProperty().get());
        dcp.valueProperty().addListener((o, a, b) -> vm.dcpProperty().set(b));
        TextField model = new TextField();
        model.setPromptText("e.g. DeepseekV3ForCausalLM");
        model.textProperty().bindBidirectional(vm.modelProperty());
        TextField tokens = new TextField();
        tokens.setPromptText("max tokens per batch");
        tokens.textProperty().bindBidirectional(vm.tokensProperty());
        TextArea flags = area("flashinfer-allreduce-fusion-backend=trtllm", vm.flagsProperty());
        TextArea env = area("VLLM_FLASHINFER_ALLREDUCE_BACKEND=mnnvl", vm.envProperty());
        TextArea assume = area(vm.assumeKeys().isEmpty() ? "multicast=false, sm=10.0" : String.join("=…, ", vm.assumeKeys()) + "=…", vm.assumeProperty());
        assume.setWrapText(true);
        int r = 0;
        Label title = new Label("Deployment");
        title.getStyleClass().add("title-4");
        g.add(title, 0, r++, 2, 1);
        g.addRow(r++, new Label("Framework"), framework);
        g.addRow(r++, new Label("Nodes"), nodes);
        tp.setTooltip(new javafx.scene.control.Tooltip("Tensor-parallel size; \"" + ALL_GPUS + "\": every GPU of the node (type a number or \"all\")"));
        g.addRow(r++, new Label("TP"), tp);
        g.addRow(r++, new Label("DCP"), dcp);
        g.addRow(r++, new Label("Model"), model);
        g.addRow(r++, new Label("Tokens"), tokens);
        g.add(new Label("Flags (name=value)"), 0, r++, 2, 1);
        g.add(flags, 0, r++, 2, 1);
        g.add(new Label("Environment (NAME=value)"), 0, r++, 2, 1);
        g.add(env, 0, r++, 2, 1);
        g.add(new Label("What if (machine facts)"), 0, r++, 2, 1);
        g.add(assume, 0, r, 2, 1);
        ScrollPane sp = new ScrollPane(g);
        sp.setFitToWidth(true);
        sp.setPrefWidth(300);
        sp.getStyleClass().add("advisor-panel");
        return sp;
    }

    private static Spinner<Integer> spinner(int min, int max, int value) {
        Spinner<Integer> s = new Spinner<>(min, max, value);
        s.setEditable(true);
        s.setPrefWidth(110);
        return s;
    }

    private static TextArea area(String prompt, javafx.beans.property.StringProperty p) {
        TextArea a = new TextArea();
        a.setPromptText(prompt);
        a.setPrefRowCount(3);
        a.setWrapText(false);
        a.textProperty().bindBidirectional(p);
        return a;
    }

    private void buildTable() {
        table.setItems(vm.verdicts());
        table.setId("verdictTable");
        table.setPlaceholder(new Label("No verdicts yet."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TableColumn<VerdictRow, String> outcome = col("Outcome", VerdictRow::outcome, 90);
        outcome.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(null);
                setGraphic(null);
                if (!empty && item != null) {
                    Label badge = new Label(icon(item) + " " + item);
                    badge.getStyleClass().addAll("badge", "badge-" + badgeStyle(item));
                    setGraphic(badge);
                }
            }
        });
        table.getColumns().add(outcome);
        table.getColumns().add(col("Framework", VerdictRow::framework, 80));
        TableColumn<VerdictRow, String> knob = col("Knob", VerdictRow::knob, 260);
        knob.setCellFactory(WrappingCells::nameCell);
        table.getColumns().add(knob);
        for (TableColumn<VerdictRow, String> c : List.of(col("Value", VerdictRow::value, 130),
                col("Resolved", v -> v.resolved() == null ? "—" : v.resolved(), 100), col("When", v -> v.when() == null ? "" : v.when(), 140))) {
            c.setCellFactory(WrappingCells::nameCell); // "(_set_envs_and_config)" breaks after a separator too
            table.getColumns().add(c);
        }
        WrappingCells.apply(table);
        TableHeaders.keepWhole(table);
        outcome.setMinWidth(112); // the badge "▲ fallback" whole
    }

    /** One paragraph: the machine facts the rules saw, what was derived for the deployment, the rule versions. */
    static String describe(AdvisorViewModel.Advice a) {
        StringBuilder sb = new StringBuilder("Machine: ");
        sb.append(a.machineFacts().entrySet().stream().map(e -> e.getKey() + "=" + (e.getValue() == null ? "unknown" : e.getValue())).collect(Collectors.joining(", ")));
        if (!a.deploymentNotes().isEmpty()) {
            sb.append("\nDeployment: ").append(String.join("; ", a.deploymentNotes()));
        }
        if (!a.versions().isEmpty()) {
            sb.append("\nRules: ").append(a.versions().entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));
        }
        if (a.blocked() != null) {
            sb.append("\nNo verdicts: ").append(a.blocked());
        }
        return sb.toString();
    }

    /** The badge's mark: only {@code ok} gets the tick; unknown is a question, never a pass. */
    static String icon(String outcome) {
        return switch (outcome) {
            case "error" -> "✖";
            case "fallback" -> "▲";
            case "ok" -> "✔";
            case "unknown" -> "?";
            default -> "–"; // not applicable
        };
    }

    /** The badge's colour class: green only for ok. */
    static String badgeStyle(String outcome) {
        return switch (outcome) {
            case "error" -> "error";
            case "fallback" -> "warning";
            case "ok" -> "ok";
            case "unknown" -> "info";
            default -> "muted";
        };
    }

    private static TableColumn<VerdictRow, String> col(String title, Function<VerdictRow, String> f, double w) {
        TableColumn<VerdictRow, String> c = new TableColumn<>(title);
        c.setCellValueFactory(cd -> new SimpleStringProperty(f.apply(cd.getValue())));
        c.setPrefWidth(w);
        return c;
    }

    private void showDetails(VerdictRow v) {
        details.getChildren().clear();
        if (v == null) {
            Label hint = new Label("Select a verdict to see the framework's message, when it happens, why, and the fix.");
            hint.setWrapText(true);
            hint.getStyleClass().add("text-muted");
            details.getChildren().add(hint);
            return;
        }
        Label head = new Label(v.framework() + " · " + v.knob() + " = " + v.setting());
        head.getStyleClass().add("title-4");
        head.setWrapText(true);
        details.getChildren().add(head);
        if (v.message() != null) {
            details.getChildren().add(block("Message" + (v.errorClass() == null ? "" : " (" + v.errorClass() + ")"), v.message(), true));
        }
        if (v.when() != null) {
            details.getChildren().add(block("When", v.when(), false));
        }
        if (v.why() != null) {
            details.getChildren().add(block("Why", v.why(), false));
        }
        if (v.fix() != null) {
            VBox fix = block("Fix", v.fix(), true);
            Button copy = new Button("Copy fix");
            copy.setOnAction(e -> copy(v.fix()));
            fix.getChildren().add(copy);
            details.getChildren().add(fix);
        }
        if (v.source() != null) {
            String url = v.sourceUrl();
            if (url != null) {
                Hyperlink link = new Hyperlink(v.source());
                link.setWrapText(true);
                link.setOnAction(e -> openLink.accept(url));
                details.getChildren().add(new VBox(2, key("Source"), link));
            } else {
                details.getChildren().add(block("Source", v.source(), false));
            }
        }
        if (v.version() != null) {
            details.getChildren().add(block("Rules of", v.version(), false));
        }
    }

    private void showRecommendations() {
        recommendations.getChildren().clear();
        Label t = new Label("Recommended configuration");
        t.getStyleClass().add("title-4");
        recommendations.getChildren().add(t);
        if (!vm.recommendations().isEmpty() && !vm.predictedProperty().get().isEmpty()) {
            Label heading = new Label(vm.predictedProperty().get());
            heading.setWrapText(true);
            recommendations.getChildren().add(heading);
        }
        for (RecommendationCard r : vm.recommendations()) {
            String text = String.join("\n", r.lines());
            VBox card = block(r.framework().toUpperCase(Locale.ROOT), text.isEmpty() ? "(defaults)" : text, true);
            Label summary = new Label(r.summary());
            summary.setWrapText(true);
            Button copy = new Button("Copy");
            copy.setOnAction(e -> copy(text));
            HBox bar = new HBox(8, copy);
            bar.setAlignment(Pos.CENTER_LEFT);
            card.getChildren().add(summary);
            if (r.predicted() != null) {
                Label cost = new Label(r.predicted());
                cost.setWrapText(true);
                cost.getStyleClass().add("predicted-cost");
                card.getChildren().add(cost);
            }
            card.getChildren().add(bar);
            card.getStyleClass().add("fact-card");
            card.setPadding(new Insets(8, 10, 8, 10));
            recommendations.getChildren().add(card);
        }
    }

    private static VBox block(String key, String value, boolean mono) {
        Label v = new Label(value);
        v.setWrapText(true);
        if (mono) {
            v.getStyleClass().add("mono");
        }
        return new VBox(2, key(key), v);
    }

    private static Label key(String k) {
        Label l = new Label(k);
        l.getStyleClass().add("details-key");
        return l;
    }

    private static void copy(String text) {
        ClipboardContent c = new ClipboardContent();
        c.putString(text);
        Clipboard.getSystemClipboard().setContent(c);
    }

    static String joinLines(List<String> l) {
        return l.stream().collect(Collectors.joining("\n"));
    }
}
