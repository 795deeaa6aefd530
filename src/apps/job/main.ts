/** The job view (get_job): the posting in full, with its evidence, source link and provenance. */
import { replaceChildren } from '../shared/dom.js';
import { jobDetail } from '../shared/job.js';
import { provenanceFooter } from '../shared/provenance-footer.js';
import { showStatus, startView } from '../shared/view.js';

startView('job', (result, { app, root, args }) => {
  if (!result.ok) return showStatus(root, result.message, 'error');
  const { data, provenance, notices } = result.value;
  replaceChildren(
    root,
    jobDetail(app, data, args.include_predicted_salaries !== true, 'h1'),
    provenanceFooter(provenance, notices),
  );
});
