package dev.runnel.connector.file.sink.committer;

import dev.runnel.api.connector.sink2.Committer;
import dev.runnel.connector.file.sink.FileSinkCommittable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Collection;

/**
 * Commits a {@link dev.runnel.connector.file.sink.FileSink}'s pending part files by renaming each from its
 * hidden in-progress name to its final name, atomically, so that readers of the directory see a part whole or
 * not at all.
 *
 * <p>Idempotent, because after a failure the committables of the last completed checkpoint are committed
 * again:
 * <table>
 *   <caption>what a commit finds and does</caption>
 *   <tr><th>pending file</th><th>target</th><th>outcome</th></tr>
 *   <tr><td>exists</td><td>missing</td><td>rename: committed</td></tr>
 *   <tr><td>missing</td><td>exists, recorded size</td><td>renamed before the failure: already committed</td></tr>
 *   <tr><td>exists</td><td>exists, same bytes</td><td>already committed (a copy); the pending file is removed</td></tr>
 *   <tr><td>exists</td><td>exists, other bytes</td><td>fails: a target is never overwritten</td></tr>
 *   <tr><td>missing</td><td>missing or other size</td><td>fails: the part is lost (someone removed it)</td></tr>
 * </table>
 *
 * Task thread only; stateless.
 */
public final class FileCommitter implements Committer<FileSinkCommittable> {

    @Override
    public void commit(Collection<CommitRequest<FileSinkCommittable>> requests) throws IOException {
        for (CommitRequest<FileSinkCommittable> request : requests) {
            commit(request);
        }
    }

    private static void commit(CommitRequest<FileSinkCommittable> request) throws IOException {
        FileSinkCommittable committable = request.getCommittable();
        Path pending = Paths.get(committable.getPendingFile());
        Path target = Paths.get(committable.getTargetFile());
        boolean pendingExists = Files.exists(pending);
        boolean targetExists = Files.exists(target);
        if (pendingExists && !targetExists) {
            try {
                Files.move(pending, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new IOException("Cannot commit the part file " + pending + " by renaming it to " + target + ": "
                        + e, e);
            }
        } else if (!pendingExists && targetExists && Files.size(target) == committable.getSize()) {
            request.signalAlreadyCommitted();
        } else if (pendingExists && Files.size(target) == Files.size(pending) && Files.mismatch(pending, target) == -1) {
            Files.delete(pending);
            request.signalAlreadyCommitted();
        } else if (pendingExists) {
            request.signalFailedWithUnknownReason(new IOException("Cannot commit the part file " + pending + ": its"
                    + " final name " + target + " is taken by a file with other content, which the file sink never"
                    + " overwrites. Remove or move " + target + " and restart the job."));
        } else {
            request.signalFailedWithUnknownReason(new IOException("Cannot commit the part file " + pending + " to "
                    + target + ": the pending file is gone and the target " + (targetExists
                    ? "has " + Files.size(target) + " bytes instead of " + committable.getSize()
                    : "does not exist") + ". Was the output directory changed while the job ran?"));
        }
    }

    @Override
    public void close() {}
}
