import { PublishScreen } from '../components/publish-screen';

/** /advertising/publish-ec 电商发布: the batch publish wizard for products and their schemes. */
export default function PublishEcPage() {
  return <PublishScreen platform="ec" />;
}
