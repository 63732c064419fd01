import { PublishScreen } from '../components/publish-screen';

/** /advertising/publish 短剧发布: the batch publish wizard for dramas and their schemes. */
export default function PublishPage() {
  return <PublishScreen platform="dj" />;
}
