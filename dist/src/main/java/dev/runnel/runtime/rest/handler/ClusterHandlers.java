package dev.runnel.runtime.rest.handler;

import dev.runnel.runtime.dispatcher.DispatcherGateway;
import dev.runnel.runtime.dispatcher.DispatcherGateway.ClusterOverview;
import dev.runnel.runtime.dispatcher.DispatcherGateway.TaskManagerInfo;
import dev.runnel.runtime.rest.RestRequest;
import dev.runnel.runtime.rest.RestResponse;
import dev.runnel.runtime.rest.json.JsonWriter;
import java.time.ZoneId;
import java.util.TimeZone;
import java.util.concurrent.CompletableFuture;

/**
 * Flink's cluster-wide answers: {@code /overview} (ClusterOverviewWithVersion), {@code /config}
 * (DashboardConfiguration) and {@code /taskmanagers} (TaskManagersInfo), with Flink's field names. Stateless
 * apart from the gateway; thread-safe.
 */
public final class ClusterHandlers {

    /** How often the dashboard polls, in milliseconds (Flink's {@code refresh-interval}). */
    static final long REFRESH_INTERVAL_MILLIS = 1000;

    private final DispatcherGateway gateway;

    public ClusterHandlers(DispatcherGateway gateway) {
        this.gateway = gateway;
    }

    public CompletableFuture<RestResponse> overview(RestRequest request) {
        ClusterOverview o = gateway.overview();
        JsonWriter json = new JsonWriter().beginObject()
                .field("taskmanagers", o.taskManagers())
                .field("slots-total", o.slotsTotal())
                .field("slots-available", o.slotsAvailable())
                .field("jobs-running", o.jobsRunning())
                .field("jobs-finished", o.jobsFinished())
                .field("jobs-cancelled", o.jobsCancelled())
                .field("jobs-failed", o.jobsFailed())
                .field("flink-version", o.version())
                .field("flink-commit", o.commit())
                .endObject();
        return done(json);
    }

    /** Minimal: what Flink's dashboard reads first, with Runnel's version; web submission is not offered. */
    public CompletableFuture<RestResponse> config(RestRequest request) {
        ClusterOverview o = gateway.overview();
        TimeZone zone = TimeZone.getTimeZone(ZoneId.systemDefault());
        JsonWriter json = new JsonWriter().beginObject()
                .field("refresh-interval", REFRESH_INTERVAL_MILLIS)
                .field("timezone-name", zone.getDisplayName())
                .field("timezone-offset", zone.getOffset(System.currentTimeMillis()))
                .field("flink-version", o.version())
                .field("flink-revision", o.commit())
                .name("features").beginObject()
                .field("web-submit", false)
                .field("web-cancel", true)
                .field("web-rescale", true)
                .field("web-history", false)
                .endObject()
                .endObject();
        return done(json);
    }

    public CompletableFuture<RestResponse> taskManagers(RestRequest request) {
        JsonWriter json = new JsonWriter().beginObject().name("taskmanagers").beginArray();
        for (TaskManagerInfo tm : gateway.taskManagers()) {
            json.beginObject()
                    .field("id", tm.id())
                    .field("path", tm.address())
                    .field("dataPort", tm.dataPort())
                    .field("jmxPort", -1)
                    // Flink's name for the last heartbeat's epoch milliseconds
                    .field("timeSinceLastHeartbeat", tm.lastHeartbeat())
                    .field("slotsNumber", tm.slotsNumber())
                    .field("freeSlots", tm.freeSlots())
                    .name("hardware").beginObject()
                    .field("cpuCores", tm.cpuCores())
                    .field("physicalMemory", tm.physicalMemoryBytes())
                    .field("freeMemory", -1)
                    .field("managedMemory", -1)
                    .endObject()
                    .endObject();
        }
        return done(json.endArray().endObject());
    }

    static CompletableFuture<RestResponse> done(JsonWriter json) {
        return CompletableFuture.completedFuture(RestResponse.ok(json.toString()));
    }
}
