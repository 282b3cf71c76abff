/** Query key of the scene tree; its own module, so that the sign-in guard can invalidate the tree without loading the widget. */
export const SCENE_TREE_KEY = ['sceneTree'] as const;
