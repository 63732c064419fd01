import { ReportScreen } from '../components/report-screen';
import { REPORT_SCREENS } from '../components/report-levels';

/** /admin/advertising/campaign every campaign of the company. */
export default function Page() {
  return <ReportScreen config={REPORT_SCREENS.adminCampaign} />;
}
