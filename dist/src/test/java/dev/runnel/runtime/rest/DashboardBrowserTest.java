package dev.runnel.runtime.rest;

import static dev.runnel.runtime.rest.InMemoryDispatcherGateway.JOB;
import static dev.runnel.runtime.rest.dashboard.DashboardCheck.count;
import static dev.runnel.runtime.rest.dashboard.DashboardCheck.text;
import static dev.runnel.runtime.rest.dashboard.DashboardCheck.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.RestOptions;
import dev.runnel.runtime.dispatcher.DispatcherGateway.EdgeDetails;
import dev.runnel.runtime.dispatcher.DispatcherGateway.JobDetails;
import dev.runnel.runtime.dispatcher.DispatcherGateway.VertexDetails;
import dev.runnel.runtime.rest.dashboard.Bottleneck;
import dev.runnel.runtime.rest.dashboard.DashboardCheck;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real browser (Debian's headless Chromium): the job page of the in-memory gateway's job,
 * whose keyed vertex is busy behind a backpressured Flat Map, draws the graph and names the bottleneck, with the
 * same sentence as the Java rule; it follows the numbers as they change; and the job list links to it. Skips only
 * when chromium or chromium-driver is not installed.
 */
@Timeout(120)
class DashboardBrowserTest {

    private static final List<String> VERTICES = List.of("Collection Source", "Flat Map", "Sum -> Print to Std. Out");
    private static final List<String> EDGES = List.of("REBALANCE · ALL_TO_ALL", "HASH · ALL_TO_ALL");
    private static final String SENTENCE =
            "'Sum -> Print to Std. Out' is the bottleneck: busy 97%, its input 'Flat Map' backpressured 88%";

    @TempDir
    Path uploads;

    @BeforeAll
    static void needsChromium() {
        assumeTrue(DashboardCheck.available(), DashboardCheck.unavailableReason());
    }

    @Test
    void jobPageDrawsTheGraphAndNamesTheBottleneck() throws Exception {
        try (RestServerFixture f = new RestServerFixture(uploads)) {
            JobDetails details = f.gateway.job(JOB).orElseThrow();
            assertThat(Bottleneck.sentence(details)).as("the Java rule").isEqualTo(SENTENCE);
            ChromeDriver driver = DashboardCheck.open();
            try {
                URI page = URI.create(f.server.url() + "/#/jobs/" + JOB);
                DashboardCheck.check(driver, page, null, new DashboardCheck.Expected(VERTICES, EDGES, SENTENCE),
                        Path.of("target", "dashboard-screenshot.png"));
                assertThat(texts(driver, "g.vertex[data-vertex-id='v3'] text.operator"))
                        .containsExactly("▸ Sum", "▸ Print to Std. Out");
                assertThat(text(driver, "g.vertex[data-vertex-id='v1'] text.ratios"))
                        .isEqualTo("busy 30% · backpressured 88%");
                assertThat(text(driver, "g.vertex[data-vertex-id='v1'] text.rates")).isEqualTo("in 1.0k/s · out 5.0k/s");
                assertThat(text(driver, "#checkpoint-counts")).isEqualTo("1 completed, 1 in progress, 1 failed, 0 restored");
                assertThat(count(driver, "#checkpoints tr.checkpoint")).isEqualTo(3);
                assertThat(count(driver, "#exceptions details.exception")).isEqualTo(1);
                assertThat(text(driver, "tr.vertex-row[data-vertex-id='v1']")).contains("high");

                // live: the page polls, so lower the keyed vertex's busy ratio and the sentence follows
                f.gateway.sumBusyRatio = 0.2;
                new WebDriverWait(driver, Duration.ofSeconds(10)).until(d ->
                        text(driver, "#bottleneck").equals(Bottleneck.NONE));
                assertThat(Bottleneck.sentence(f.gateway.job(JOB).orElseThrow())).isEqualTo(Bottleneck.NONE);
            } finally {
                driver.quit();
            }
        }
    }

    /** The page's JS rule and the Java rule agree on random graphs (ratios in steps of 0.05, so ties happen). */
    @Test
    void theJavaScriptRuleIsTheJavaRule() throws Exception {
        Random random = new Random(13);
        List<List<VertexDetails>> vertexCases = new ArrayList<>();
        List<List<EdgeDetails>> edgeCases = new ArrayList<>();
        for (int c = 0; c < 300; c++) {
            int n = 2 + random.nextInt(5);
            List<VertexDetails> vertices = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                vertices.add(new VertexDetails("v" + i, "V" + i, 1, 128, "RUNNING", List.of("V" + i), List.of(), 0, 0,
                        0, 0, 0, 0, random.nextInt(21) * 0.05, random.nextInt(21) * 0.05));
            }
            List<EdgeDetails> edges = new ArrayList<>();
            for (int t = 1; t < n; t++) {
                for (int from = 0; from < t; from++) {
                    if (from == t - 1 || random.nextInt(3) == 0) {
                        edges.add(new EdgeDetails("v" + from, "v" + t, "HASH", "ALL_TO_ALL"));
                    }
                }
            }
            vertexCases.add(vertices);
            edgeCases.add(edges);
        }
        List<Object> jsCases = new ArrayList<>();
        for (int c = 0; c < vertexCases.size(); c++) {
            jsCases.add(Map.of(
                    "vertices", vertexCases.get(c).stream().map(v -> Map.of("id", v.id(), "name", v.name(),
                            "busyRatio", v.busyRatio(), "backPressuredRatio", v.backPressuredRatio())).toList(),
                    "edges", edgeCases.get(c).stream().map(e -> Map.of("source", e.sourceVertexId(),
                            "target", e.targetVertexId())).toList()));
        }
        try (RestServerFixture f = new RestServerFixture(uploads)) {
            ChromeDriver driver = DashboardCheck.open();
            try {
                driver.get(f.server.url() + "/");
                new WebDriverWait(driver, Duration.ofSeconds(15)).until(d -> Boolean.TRUE.equals(
                        driver.executeScript("return typeof bottleneckSentence === 'function';")));
                Object answers = driver.executeScript(
                        "return arguments[0].map(c => bottleneckSentence(c.vertices, c.edges));", jsCases);
                List<String> expected = new ArrayList<>();
                for (int c = 0; c < vertexCases.size(); c++) {
                    expected.add(Bottleneck.find(vertexCases.get(c), edgeCases.get(c))
                            .map(Bottleneck.Found::sentence).orElse(Bottleneck.NONE));
                }
                assertThat(answers).isEqualTo(expected);
                assertThat(expected).as("the cases cover both outcomes").contains(Bottleneck.NONE)
                        .anyMatch(sentence -> sentence.contains("is the bottleneck"));
            } finally {
                driver.quit();
            }
        }
    }

    @Test
    void jobListLinksToTheJobPageWithTheToken() throws Exception {
        Configuration withToken = new Configuration();
        withToken.set(RestOptions.AUTH_TOKEN, "s3cret");
        try (RestServerFixture f = new RestServerFixture(uploads, withToken, "s3cret")) {
            ChromeDriver driver = DashboardCheck.open();
            try {
                driver.get(f.server.url() + "/");
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(15));
                wait.until(d -> d.findElement(By.id("token-form")).isDisplayed());
                driver.findElement(By.id("token-input")).sendKeys("s3cret");
                driver.findElement(By.cssSelector("#token-form button")).click();
                wait.until(d -> count(driver, "#jobs tr.job a") > 0);
                assertThat(text(driver, "#jobs tr.job a")).isEqualTo("WordCount");
                // the list redraws on every poll: a click on a link found a moment ago can hit a removed node
                wait.ignoring(StaleElementReferenceException.class).until(d -> {
                    d.findElement(By.cssSelector("#jobs tr.job a")).click();
                    return true;
                });
                wait.until(d -> count(driver, "svg#graph g.vertex") == 3);
                assertThat(DashboardCheck.seen(driver).bottleneckSentence()).isEqualTo(SENTENCE);
            } finally {
                driver.quit();
            }
            // and the reusable short check with a token, as a real-cluster test calls it
            DashboardCheck.Seen seen = DashboardCheck.check(URI.create(f.server.url() + "/#/jobs/" + JOB), "s3cret",
                    VERTICES.toArray(String[]::new));
            assertThat(seen.edgeLabels()).isEqualTo(EDGES);
            assertThat(Path.of("target", "dashboard-01234567.png")).isNotEmptyFile();
        }
    }
}
