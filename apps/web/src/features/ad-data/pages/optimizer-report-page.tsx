import { ReportScreen } from '../components/report-screen';
import { REPORT_SCREENS } from '../components/report-levels';

/** /advertising/user 广告数据 by optimizer. */
export default function Page() {
  return <ReportScreen config={REPORT_SCREENS.optimizer} />;
}
