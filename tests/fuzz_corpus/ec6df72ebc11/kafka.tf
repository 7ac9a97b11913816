resource "helm_release"""{repository=:bitnami
chart="kafka"t{}t{}set{name="\
"}t{}}