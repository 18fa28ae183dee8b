package dev.runnel.runtime.rest.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Loads a job's dashboard page in Debian's headless Chromium (through Debian's chromium-driver) and checks it:
 * the graph's vertices and edges are drawn, and the sentence at the top says what is expected. Reusable against
 * any JobManager:
 *
 * <pre>{@code
 * DashboardCheck.check(URI.create(restUrl + "/#/jobs/" + jobId), token, new DashboardCheck.Expected(
 *         List.of("Collection Source", "Flat Map", "Sum -> Print to Std. Out"),
 *         List.of("REBALANCE · ALL_TO_ALL", "HASH · ALL_TO_ALL"), null), Path.of("target/dashboard.png"));
 * }</pre>
 *
 * A {@code null} sentence accepts any sentence (a real job's ratios move). Callers skip when {@link #available()}
 * is false. Each call starts and quits its own browser.
 */
public final class DashboardCheck {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(20);

    /**
     * What the page must show: the vertices' names and the edges' labels ({@code "HASH · ALL_TO_ALL"}) in the
     * job's order; {@code edgeLabels} null accepts any edges, {@code bottleneckSentence} null any sentence.
     */
    public record Expected(List<String> vertexNames, List<String> edgeLabels, String bottleneckSentence) {}

    /** What the page showed, for further checks. */
    public record Seen(List<String> vertexNames, List<String> edgeLabels, String bottleneckSentence) {}

    private DashboardCheck() {}

    /** Whether Debian's chromium and chromium-driver are installed. */
    public static boolean available() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    /** Why {@link #available()} is false, for the test's assumption. */
    public static String unavailableReason() {
        return "the dashboard's browser test needs Debian's chromium and chromium-driver (" + CHROMIUM + ", "
                + CHROMEDRIVER + "): apt-get install -y chromium chromium-driver";
    }

    /** Opens a browser; the caller quits it. {@code --no-sandbox}: tests run as root in CI. */
    public static ChromeDriver open() {
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toString());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--no-first-run", "--disable-extensions");
        return new ChromeDriver(service, options);
    }

    /**
     * The short form for a real cluster: the named vertices are drawn and a sentence is shown; the screenshot goes
     * to {@code target/dashboard-<first 8 digits of the job id>.png}.
     */
    public static Seen check(URI jobPage, String token, String... vertexNames) throws IOException {
        String fragment = jobPage.getFragment() == null ? "job" : jobPage.getFragment();
        String id = fragment.substring(fragment.lastIndexOf('/') + 1);
        return check(jobPage, token, new Expected(List.of(vertexNames), null, null),
                Path.of("target", "dashboard-" + id.substring(0, Math.min(8, id.length())) + ".png"));
    }

    /** Loads {@code jobPage} (with {@code token} if the server needs one; may be null), checks, saves a screenshot. */
    public static Seen check(URI jobPage, String token, Expected expected, Path screenshot) throws IOException {
        ChromeDriver driver = open();
        try {
            return check(driver, jobPage, token, expected, screenshot);
        } finally {
            driver.quit();
        }
    }

    /** As {@link #check(URI, String, Expected, Path)} in a browser the caller owns. */
    public static Seen check(ChromeDriver driver, URI jobPage, String token, Expected expected, Path screenshot)
            throws IOException {
        if (token != null) {
            // the page keeps the token in sessionStorage, per origin: set it on the origin first
            driver.get(jobPage.resolve("/").toString());
            driver.executeScript("sessionStorage.setItem('runnel.token', arguments[0]);", token);
        }
        driver.get(jobPage.toString());
        new WebDriverWait(driver, WAIT).withMessage(() -> "the job page at " + jobPage + " did not draw "
                + expected.vertexNames().size() + " vertices; page text: " + driver.findElement(By.tagName("body"))
                .getText()).until(d -> d.findElements(By.cssSelector("svg#graph g.vertex")).size()
                        == expected.vertexNames().size() && !d.findElement(By.id("bottleneck")).getText().isEmpty());
        Seen seen = seen(driver);
        assertThat(seen.vertexNames()).as("vertices drawn").containsExactlyElementsOf(expected.vertexNames());
        if (expected.edgeLabels() != null) {
            assertThat(seen.edgeLabels()).as("edges drawn").containsExactlyElementsOf(expected.edgeLabels());
        }
        assertThat(driver.findElements(By.cssSelector("svg#graph g.edge path"))).as("an arrow per edge label")
                .hasSize(seen.edgeLabels().size());
        if (expected.bottleneckSentence() != null) {
            assertThat(seen.bottleneckSentence()).isEqualTo(expected.bottleneckSentence());
        }
        Files.createDirectories(screenshot.toAbsolutePath().getParent());
        Files.write(screenshot, driver.getScreenshotAs(OutputType.BYTES));
        return seen;
    }

    /** What the page shows now. */
    public static Seen seen(ChromeDriver driver) {
        List<String> vertices = driver.findElements(By.cssSelector("svg#graph g.vertex text.vertex-name")).stream()
                .map(WebElement::getText).toList();
        List<String> edges = driver.findElements(By.cssSelector("svg#graph g.edge text.edge-label")).stream()
                .map(WebElement::getText).toList();
        return new Seen(vertices, edges, driver.findElement(By.id("bottleneck")).getText());
    }
}
