package dev.runnel.runtime.rest.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.openqa.selenium.OutputType;
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
                + expected.vertexNames().size() + " vertices; page text: " + text(driver, "body"))
                .until(d -> count(driver, "svg#graph g.vertex") == expected.vertexNames().size()
                        && !text(driver, "#bottleneck").isEmpty());
        Seen seen = seen(driver);
        assertThat(seen.vertexNames()).as("vertices drawn").containsExactlyElementsOf(expected.vertexNames());
        if (expected.edgeLabels() != null) {
            assertThat(seen.edgeLabels()).as("edges drawn").containsExactlyElementsOf(expected.edgeLabels());
        }
        assertThat(count(driver, "svg#graph g.edge path")).as("an arrow per edge label")
                .isEqualTo(seen.edgeLabels().size());
        if (expected.bottleneckSentence() != null) {
            assertThat(seen.bottleneckSentence()).isEqualTo(expected.bottleneckSentence());
        }
        Files.createDirectories(screenshot.toAbsolutePath().getParent());
        Files.write(screenshot, driver.getScreenshotAs(OutputType.BYTES));
        return seen;
    }

    /** What the page shows now. */
    public static Seen seen(ChromeDriver driver) {
        return new Seen(texts(driver, "svg#graph g.vertex text.vertex-name"),
                texts(driver, "svg#graph g.edge text.edge-label"), text(driver, "#bottleneck"));
    }

    /**
     * The rendered text of every element matching {@code css}, read in one script call. The page redraws on every
     * poll, so an element found by one WebDriver call can be gone by the next (a stale element reference); a
     * script runs between two redraws and sees one consistent page.
     */
    @SuppressWarnings("unchecked")
    public static List<String> texts(ChromeDriver driver, String css) {
        Object found = driver.executeScript("return Array.from(document.querySelectorAll(arguments[0]))"
                + ".map(e => (e.innerText !== undefined ? e.innerText : e.textContent).trim());", css);
        return List.copyOf((List<String>) found);
    }

    /** The text of the one element matching {@code css}, or the empty string when there is none (yet). */
    public static String text(ChromeDriver driver, String css) {
        List<String> found = texts(driver, css);
        assertThat(found).as("elements matching " + css).hasSizeLessThanOrEqualTo(1);
        return found.isEmpty() ? "" : found.get(0);
    }

    /** How many elements match {@code css} now. */
    public static int count(ChromeDriver driver, String css) {
        return texts(driver, css).size();
    }
}
